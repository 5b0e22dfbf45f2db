"""Time variants of chapter 8's CUDA kernels on an NVIDIA GPU: other tile sizes and targets.

    python3 chapters/08-efficient/compare/gpu_variants.py [--out variants.json]

The chapter's kernels are compiled with one configuration each (`src/gpu/plan.rs`): 64 queries a
block, the widest key tile that fits 48 KiB of shared memory up to 64 keys, the tensor-core ones
for compute capability 8.0 (`compute_80`). This script compiles the same sources (`src/gpu/*.cu`,
with the host's defines put before them, as `Config::nvrtc_source` does) with other queries a block
(TILE_Q) and keys a tile (TILE_K), checks each variant against PyTorch's attention in float64 at a
length that is no multiple of the tiles, and times it at the chapter's shapes (batch 1, 8 heads,
d_k 64), without and with the causal mask. CuPy compiles them with nvrtc straight for the GPU it
runs on (`sm_90` on an H100 or H200, where the chapter gives nvrtc `compute_80` and lets the driver
finish the job) and with denormals flushed to zero (`-ftz=true`, CuPy's default).

It measures the kernel alone (CUDA events around the launch, best of 5 after a warm-up), not the
Rust call, which also allocates its output: use it to choose between variants, and the chapter's
`gpu_timing` example for the numbers the page prints. Needs PyTorch and CuPy on a CUDA build.
"""

import argparse
import itertools
import json
import math
import pathlib

HEADS, D = 8, 64
SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "gpu"
KERNELS = {  # kernel: (source, function, threads a block for TILE_Q, input type)
    "plain": ("attention.cu", "tiled_attention_f32", lambda tq: tq, "float32"),
    "tf32x3": ("attention_tf32.cu", "tiled_attention_tf32", lambda tq: tq // 16 * 32, "float32"),
    "f16": ("attention_mma.cu", "tiled_attention_mma", lambda tq: tq // 16 * 32, "float16"),
    "bf16": ("attention_mma.cu", "tiled_attention_mma", lambda tq: tq // 16 * 32, "bfloat16"),
}


def source(kernel, tile_q, tile_k):
    file, _, _, _ = KERNELS[kernel]
    defines = f"#define HEAD_DIM {D}\n#define TILE_K {tile_k}\n#define TILE_Q {tile_q}\n"
    if kernel in ("f16", "bf16"):
        defines += f"#define HALF_BF16 {int(kernel == 'bf16')}\n"
    softmax = "" if kernel == "plain" else (SRC / "warp_softmax.cuh").read_text()
    return defines + (SRC / "common.cuh").read_text() + softmax + (SRC / file).read_text()


def variants():
    """(kernel, TILE_Q, TILE_K); the chapter's own are (64, 64) at d_k 64."""
    for tq, tk in itertools.product([64, 128], [32, 64, 128]):
        yield "f16", tq, tk
    for tq, tk in itertools.product([64, 128], [32, 64]):
        yield "bf16", tq, tk
        yield "tf32x3", tq, tk
    for tq, tk in itertools.product([32, 64, 128, 256], [32, 64]):
        yield "plain", tq, tk


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[2048, 4096, 8192, 16384])
    parser.add_argument("--out", default="gpu_variants.json")
    parser.add_argument("--kernels", nargs="+", default=list(KERNELS), choices=list(KERNELS))
    args = parser.parse_args()
    import cupy
    import torch
    import torch.nn.functional as F

    gen = torch.Generator(device="cuda").manual_seed(0)

    def inputs(n, dtype):
        return [torch.randn(1, HEADS, n, D, device="cuda", generator=gen).to(dtype)
                for _ in range(3)]

    def as_cupy(t):
        # CuPy has no bfloat16: the kernels take halves as 16-bit words anyway
        return cupy.asarray(t.view(torch.int16) if t.dtype != torch.float32 else t)

    def launcher(fn, threads, tile_q, scale):
        def launch(q, k, v, causal):
            n = q.shape[2]
            out = torch.empty(q.shape, device="cuda", dtype=torch.float32)
            qc, kc, vc, oc = (as_cupy(t) for t in (q, k, v, out))
            fn(((n + tile_q - 1) // tile_q, HEADS), (threads,),
               (qc, kc, vc, oc, cupy.int32(n), cupy.int32(causal), cupy.float32(scale)))
            return out
        return launch

    rows = []
    for kernel, tq, tk in (v for v in variants() if v[0] in args.kernels):
        file, name, threads, dtype = KERNELS[kernel]
        row = {"kernel": kernel, "tile_q": tq, "tile_k": tk}
        scale = 1 / math.sqrt(D) if kernel == "plain" else math.log2(math.e) / math.sqrt(D)
        try:
            module = cupy.RawModule(code=source(kernel, tq, tk), backend="nvrtc")
            launch = launcher(module.get_function(name), threads(tq), tq, scale)
            torch_dtype = getattr(torch, dtype)
            errors = []
            for causal in (False, True):
                q, k, v = inputs(1000, torch_dtype)
                torch.cuda.synchronize()
                got = launch(q, k, v, causal)
                torch.cuda.synchronize()
                want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                                      is_causal=causal)
                diff = (got.double() - want).abs()
                errors.append(diff.max().item())
                if errors[-1] > 1e-2:  # what a wrong result looks like, for the log
                    at = divmod(diff.argmax().item(), D)
                    print(f"  causal {causal}: row {at[0]} column {at[1]}: got "
                          f"{got.flatten()[diff.argmax()].item():.4f}, want "
                          f"{want.flatten()[diff.argmax()].item():.4f}; "
                          f"rows wrong {(diff.amax(-1) > 1e-2).sum().item()} of {8 * 1000}")
            row["max_error"] = max(errors)
            for n, causal in itertools.product(args.lengths, (False, True)):
                q, k, v = inputs(n, torch_dtype)
                launch(q, k, v, causal)
                times = []
                for _ in range(5):
                    start, end = cupy.cuda.Event(), cupy.cuda.Event()
                    start.record()
                    launch(q, k, v, causal)
                    end.record()
                    end.synchronize()
                    times.append(cupy.cuda.get_elapsed_time(start, end))
                ms = min(times)
                flops = 4 * HEADS * n * n * D / (2 if causal else 1)
                row[f"{n}{'c' if causal else ''}"] = [round(ms, 4), round(flops / ms / 1e9, 1)]
        except Exception as e:  # a variant that does not compile or launch is reported, not fatal
            row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
        rows.append(row)
        cells = " ".join(f"{key}={row[key][0]}ms/{row[key][1]}T" for key in row
                         if isinstance(row[key], list))
        error = f"{row['max_error']:.1e}" if "max_error" in row else "-"
        print(f"{kernel:>6} q{tq:<3} k{tk:<3} err {error} "
              f"{cells} {row.get('error', '')}", flush=True)
    props = torch.cuda.get_device_properties(0)
    result = {"gpu": props.name, "torch": torch.__version__, "cupy": cupy.__version__,
              "shape": f"batch 1, {HEADS} heads, d_k {D}", "timing": "CUDA events, best of 5",
              "rows": rows}
    pathlib.Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
