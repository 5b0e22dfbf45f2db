"""Time PyTorch's fused attention on an NVIDIA GPU, per backend and precision.

    python3 chapters/08-efficient/compare/sdpa_gpu.py [--lengths 512 1024 2048 4096 8192 16384]

Needs a python3 with a CUDA build of PyTorch and a GPU; the GPU kit (`cargo xtask gpu-kit`) carries
this script and its runner calls it with `--timings`, beside chapter 1's attention timed by
`cargo run --release -p ch01-attention --features cuda --example device_timing` and chapter 8's own
CUDA kernel timed by its `gpu_timing` example.

Shapes as in the chapter: batch 1, 8 heads, d_k 64. For each length and precision (float32,
float16, bfloat16), without and with the causal mask (``is_causal=True``), it times
``F.scaled_dot_product_attention(q, k, v)`` as PyTorch dispatches it,
and then each backend on its own (flash, memory-efficient, cuDNN, math), best of 3 after a warm-up,
each run ending with ``torch.cuda.synchronize()``. A backend that refuses the inputs (flash attention
takes no float32) is reported as such. It prints a table and writes it as JSON to ``--out``.
"""

import argparse
import json
import time

HEADS, D = 8, 64


def best_of(f, sync, repeats=3):
    f()
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        sync()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+",
                        default=[512, 1024, 2048, 4096, 8192, 16384])
    parser.add_argument("--out", default="sdpa_gpu.json")
    args = parser.parse_args()

    try:
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as e:
        raise SystemExit(f"sdpa_gpu.py: needs PyTorch built for CUDA ({e})")

    if not torch.cuda.is_available():
        raise SystemExit("sdpa_gpu.py: no CUDA device visible to PyTorch")
    backends = {
        "flash": SDPBackend.FLASH_ATTENTION,
        "efficient": SDPBackend.EFFICIENT_ATTENTION,
        "cudnn": SDPBackend.CUDNN_ATTENTION,
        "math": SDPBackend.MATH,
    }
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    sync = torch.cuda.synchronize
    rows = []
    gen = torch.Generator(device="cuda").manual_seed(0)
    for causal in (False, True):
        for n in args.lengths:
            for name, dtype in dtypes.items():
                q, k, v = (torch.randn(1, HEADS, n, D, device="cuda", dtype=dtype, generator=gen)
                           for _ in range(3))

                def call():
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

                row = {"n": n, "dtype": name, "causal": causal}
                row["default_ms"] = 1e3 * best_of(call, sync)
                for label, backend in backends.items():
                    try:
                        with sdpa_kernel(backend):
                            row[f"{label}_ms"] = 1e3 * best_of(call, sync)
                    except RuntimeError:
                        row[f"{label}_ms"] = None
                rows.append(row)
                del q, k, v
    props = torch.cuda.get_device_properties(0)
    result = {"gpu": props.name, "torch": torch.__version__, "cuda": torch.version.cuda,
              "shape": f"batch 1, {HEADS} heads, d_k {D}", "rows": rows}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    print(f"{props.name}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
          f"batch 1, {HEADS} heads, d_k {D}; ms, best of 3")
    cols = ["default", "flash", "efficient", "cudnn", "math"]
    print(f"{'n':>6} {'dtype':>9} {'causal':>7} " + " ".join(f"{c:>10}" for c in cols))
    for r in rows:
        cells = [f"{r[c + '_ms']:>10.3f}" if r[c + "_ms"] is not None else f"{'refused':>10}"
                 for c in cols]
        print(f"{r['n']:>6} {r['dtype']:>9} {str(r['causal']):>7} " + " ".join(cells))


if __name__ == "__main__":
    main()
