"""Time PyTorch's attention and this crate's in one run, on the same machine, and write the ratios.

    python3 chapters/08-efficient/compare/compare_pytorch.py [--isa portable|avx2|avx512] [--out NAME]

PyTorch is not a dependency of the project: the first run creates a virtual environment in
``~/.cache/attention-in-rust/torch-venv`` and installs ``torch`` from PyPI into it (several GB),
then runs itself again with that environment's Python. Shapes: batch 1, 8 heads, d_k 64, float32,
PyTorch with its default thread count (one per core).

Shapes (batch x 8 heads, n, mask): 1 x 8 at n = 2048 and 8192, without a mask and with the
look-ahead mask (``is_causal=True``), and 4 x 8 at n = 256 and 1024 without a mask, where the
cost of one call shows. A shared machine's other work only ever adds time, so each side's time is
the best of many calls, spread over the same minutes: five rounds that alternate PyTorch and this
crate, each round the best of several calls after a warm-up (three for the long sequences, twenty
for the short ones). Timed per shape:
* ``F.scaled_dot_product_attention(q, k, v, is_causal=...)`` (on a CPU, PyTorch's fused flash
  kernel);
* this crate's fast tiled kernel, through
  ``cargo run --release -p ch08-efficient --example time_one``;
* once (one round), at batch 1 without a mask: the plain form
  ``softmax(q @ k.transpose(-2, -1) / sqrt(d)) @ v``, and chapter 1's dense attention at n = 2048.

``--isa`` forces the fast kernel's instruction-set path (the ``ATTENTION_ISA`` variable); by
default it takes the widest this CPU has. The JSON records the CPU and its vector extensions, the
path that ran, ATen's vector level (``torch.backends.cpu.get_cpu_capability()``: the instruction
set of PyTorch's own vectorised kernels, not the path its BLAS takes for a matrix product, which
the BLAS chooses by itself), both sides' thread counts, and each round's time on both sides, so
the page can give the spread and not only the best.

Each machine keeps its own file: it writes ``measurements/pytorch/NAME.json``, NAME being the CPU's
model and widest vector extension (``amd-epyc-avx512``), with ``-avx2-path`` added when ``--isa``
forces a narrower path (``--out`` names it otherwise), and regenerates the page's table
``measurements/pytorch.md`` from every file there.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import venv
from pathlib import Path

CRATE = Path(__file__).resolve().parents[1]
ROOT = CRATE.parents[1]
VENV = Path.home() / ".cache" / "attention-in-rust" / "torch-venv"
HEADS, D = 8, 64
ROUNDS = 5
# (batch, n, causal): the long sequences the page compares, and short batched ones
SHAPES = [(1, 2048, False), (1, 8192, False), (1, 2048, True), (1, 8192, True),
          (4, 256, False), (4, 1024, False)]


def ensure_torch():
    try:
        import torch  # noqa: F401
        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    inside = Path(sys.prefix).resolve() == VENV.resolve()
    if not python.exists() or inside:
        # a new environment, or one whose torch install was interrupted: install (again)
        print(f"installing torch from PyPI into {VENV}", flush=True)
        if not python.exists():
            venv.create(VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "torch", "numpy"], check=True)
    if inside:
        return
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def slug(model, extensions, forced):
    words = "".join(c.lower() if c.isalnum() else " " for c in model.replace("(R)", "").replace("(TM)", ""))
    widest = "avx512" if "avx512f" in extensions else "avx2" if "avx2" in extensions else "sse"
    name = "-".join(words.split() + [widest])
    return f"{name}-{forced}-path" if forced and forced != widest else name


def best_of(f, repeats):
    f()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(method, n, repeats, batch, env):
    cmd = ["cargo", "run", "--quiet", "--release", "-p", "ch08-efficient", "--example", "time_one",
           "--", method, str(n), str(repeats), str(batch)]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def cpu_info():
    model, flags = platform.processor() or "unknown CPU", set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
        elif line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
    extensions = [x for x in ("avx2", "fma", "avx512f") if x in flags]
    return model, extensions


def main():
    ensure_torch()
    import torch
    import torch.nn.functional as F

    parser = argparse.ArgumentParser()
    parser.add_argument("--isa", choices=["portable", "avx2", "avx512"],
                        help="the fast kernel's path (default: the widest this CPU has)")
    parser.add_argument("--out", help="the file's name in measurements/pytorch/, without .json")
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("ATTENTION_ISA", None)
    if args.isa:
        env["ATTENTION_ISA"] = args.isa
    torch.manual_seed(0)
    rows, isa, fast_threads = [], None, None
    for batch, n, causal in SHAPES:
        repeats = 3 if n >= 2048 else 20
        q, k, v = (torch.randn(batch, HEADS, n, D) for _ in range(3))
        method = "fast_causal" if causal else "fast"
        sdpa_rounds, fast_rounds = [], []
        with torch.no_grad():
            for _ in range(ROUNDS):
                sdpa_rounds.append(best_of(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), repeats))
                fast = ours(method, n, repeats, batch, env)
                fast_rounds.append(fast["seconds"])
                isa, fast_threads = fast["isa"], fast["threads"]
            sdpa, fast_s = min(sdpa_rounds), min(fast_rounds)
            naive = dense = None
            if batch == 1 and not causal:
                naive = best_of(lambda: torch.softmax(q @ k.transpose(-2, -1) / D**0.5, dim=-1) @ v, repeats)
            if (batch, n, causal) == (1, 2048, False):
                dense = ours("dense", n, repeats, batch, env)["seconds"]
        row = {"batch": batch, "n": n, "causal": causal, "torch_sdpa_s": sdpa, "torch_naive_s": naive,
               "fast_s": fast_s, "dense_s": dense, "torch_sdpa_rounds_s": sdpa_rounds,
               "fast_rounds_s": fast_rounds}
        rows.append(row)
        line = f"{batch} x {HEADS} heads, n = {n}{', causal' if causal else ''}: PyTorch SDPA {sdpa * 1e3:.2f} ms"
        line += f"; tiled, fast {fast_s * 1e3:.2f} ms ({isa}) -> {sdpa / fast_s:.2f}x SDPA's throughput"
        if naive is not None:
            line += f"; PyTorch naive {naive * 1e3:.1f} ms"
        if dense is not None:
            line += f"; chapter 1 {dense * 1e3:.1f} ms"
        print(line, flush=True)
    model, extensions = cpu_info()
    result = {
        "machine": f"{model}, {os.cpu_count()} cores ({', '.join(extensions)}), Python {platform.python_version()}",
        "torch_version": torch.__version__.split("+")[0],
        "torch_isa": torch.backends.cpu.get_cpu_capability(),
        "isa": isa,
        "threads": torch.get_num_threads(),
        "fast_threads": fast_threads,
        "rounds": ROUNDS,
        "rows": rows,
    }
    out = CRATE / "measurements" / "pytorch" / f"{args.out or slug(model, extensions, isa)}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}", flush=True)
    subprocess.run(["cargo", "run", "--quiet", "--release", "-p", "ch08-efficient", "--example",
                    "measurements", "--", "--tables"], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
