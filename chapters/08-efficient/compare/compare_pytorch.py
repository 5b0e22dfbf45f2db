"""Time PyTorch's attention and this crate's in one run, on the same machine, and write the ratios.

    python3 chapters/08-efficient/compare/compare_pytorch.py [--lengths 2048 8192]

PyTorch is not a dependency of the project: the first run creates a virtual environment in
``~/.cache/attention-in-rust/torch-venv`` and installs ``torch`` from PyPI into it (several GB),
then runs itself again with that environment's Python. Shapes: batch 1, 8 heads, d_k 64, float32,
PyTorch with its default thread count (one per core).

For each length it times, best of three after a warm-up:
* ``F.scaled_dot_product_attention(q, k, v)`` (on a CPU, PyTorch's fused flash kernel);
* the plain form ``softmax(q @ k.transpose(-2, -1) / sqrt(d)) @ v``;
* this crate's fast tiled kernel, and chapter 1's dense attention up to n = 2048, through
  ``cargo run --release -p ch08-efficient --example time_one``.

It writes ``measurements/pytorch.json`` and regenerates the page's table ``measurements/pytorch.md``.
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


def best_of(f, repeats=3):
    f()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(method, n):
    cmd = ["cargo", "run", "--quiet", "--release", "-p", "ch08-efficient", "--example", "time_one",
           "--", method, str(n), "3"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["seconds"]


def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def main():
    ensure_torch()
    import torch
    import torch.nn.functional as F

    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[2048, 8192])
    args = parser.parse_args()
    torch.manual_seed(0)
    rows = []
    for n in args.lengths:
        q, k, v = (torch.randn(1, HEADS, n, D) for _ in range(3))
        with torch.no_grad():
            sdpa = best_of(lambda: F.scaled_dot_product_attention(q, k, v))
            naive = best_of(lambda: torch.softmax(q @ k.transpose(-2, -1) / D**0.5, dim=-1) @ v)
        fast = ours("fast", n)
        dense = ours("dense", n) if n <= 2048 else None
        rows.append({"n": n, "torch_sdpa_s": sdpa, "torch_naive_s": naive, "fast_s": fast, "dense_s": dense})
        line = f"n = {n}: PyTorch SDPA {sdpa * 1e3:.1f} ms, naive {naive * 1e3:.1f} ms; tiled, fast {fast * 1e3:.1f} ms"
        line += f" -> {sdpa / fast:.2f}x SDPA's throughput"
        if dense is not None:
            line += f"; chapter 1 {dense * 1e3:.1f} ms ({dense / fast:.1f}x slower than fast)"
        print(line, flush=True)
    cores = os.cpu_count()
    result = {
        "machine": f"{cpu_model()}, {cores} cores, Python {platform.python_version()}",
        "torch_version": torch.__version__.split("+")[0],
        "threads": torch.get_num_threads(),
        "rows": rows,
    }
    (CRATE / "measurements" / "pytorch.json").write_text(json.dumps(result, indent=2) + "\n")
    subprocess.run(["cargo", "run", "--quiet", "--release", "-p", "ch08-efficient", "--example",
                    "measurements", "--", "--tables"], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
