"""Chapter 11's speed table, measured side by side: this chapter's decode path (on the file's
quantized blocks and in float32), chapter 10's model, Hugging Face transformers (PyTorch eager,
float32, the file dequantized) and llama.cpp (llama-cpp-python, the file as stored), on the same
32-token prompt and 64 greedy tokens, 2 threads each. Rounds alternate between the programs; the
best round of each counts. Writes measurements/speed/<machine>.json, from which the page's table
is generated (`cargo run --release -p ch11-real-llm --example speed_table`).

    python3 chapters/11-real-llm/compare/compare_speed.py [--rounds 3] [--out NAME]

Needs the model file (`cargo xtask models`). Makes its venvs under ~/.cache/attention-in-rust/ on
first use: torch-venv (torch, transformers 5.24.0, gguf, accelerate; shared with chapter 8's
script, several GB) and llama-cpp-venv (llama-cpp-python 0.3.36, which pip builds from source:
about 8 minutes on 2 cores).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CACHE = Path.home() / ".cache" / "attention-in-rust"
MODEL = CACHE / "models" / "smollm2-135m-instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
THREADS = 2
NEW_TOKENS = 64
VENVS = {
    "torch-venv": ["torch", "numpy", "transformers==5.24.0", "gguf==0.19.0", "accelerate"],
    "llama-cpp-venv": ["llama-cpp-python==0.3.36", "numpy"],
}


def python_of(name):
    """The venv's python, made and filled on first use."""
    path = CACHE / name
    python = path / "bin" / "python"
    if not python.exists():
        venv.create(path, with_pip=True)
    wanted = VENVS[name]
    check = "import importlib.metadata as m, sys; [m.version(p.split('==')[0]) for p in sys.argv[1:]]"
    if subprocess.run([str(python), "-c", check, *wanted], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *wanted], check=True)
    return str(python)


def run_json(command, env=None):
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", help="the file's name, without .json (default: the CPU's)")
    args = parser.parse_args()
    if not MODEL.exists():
        sys.exit(f"{MODEL} is missing: run `cargo xtask models`")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "ch11-real-llm", "--example", "speed"],
                   check=True, cwd=ROOT)
    ours = [str(ROOT / "target" / "release" / "examples" / "speed"), "--json"]
    env = dict(os.environ, RAYON_NUM_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS))
    torch_python, llama_python = python_of("torch-venv"), python_of("llama-cpp-venv")
    rounds = {}
    first = None
    bandwidths = []
    for r in range(args.rounds):
        result = run_json(ours, env)
        first = first or result
        bandwidths.append(result["read_bandwidth_bytes_per_s"])
        for path in result["paths"]:
            rounds.setdefault(path["path"], []).append(path)
        ids = json.dumps(result["prompt_ids"])
        for name, python, script in [
            ("transformers", torch_python, "hf_round.py"),
            ("llama.cpp", llama_python, "llama_cpp_round.py"),
        ]:
            rounds.setdefault(name, []).append(run_json(
                [python, str(HERE / script), str(MODEL), ids, str(NEW_TOKENS), str(THREADS)], env))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    rows = []
    for name, runs in rounds.items():
        rows.append({
            "program": name,
            "prefill_tokens_per_s": max(x["prefill_tokens_per_s"] for x in runs),
            "decode_tokens_per_s": max(x["decode_tokens_per_s"] for x in runs),
            "prefill_rounds": [round(x["prefill_tokens_per_s"], 3) for x in runs],
            "decode_rounds": [round(x["decode_tokens_per_s"], 3) for x in runs],
            "weight_bytes_per_token": runs[0].get("weight_bytes_per_token"),
            "tokens": runs[0]["tokens"],
            # where one decode step's time went, in the round that decoded fastest
            "profile": max(runs, key=lambda x: x["decode_tokens_per_s"]).get("profile"),
            "versions": runs[0].get("versions", {}),
        })
    record = {
        "machine": first["machine"],
        "isa": first["isa"],
        "threads": THREADS,
        "prompt_ids": first["prompt_ids"],
        "new_tokens": NEW_TOKENS,
        "read_bandwidth_bytes_per_s": max(bandwidths),
        "rounds": args.rounds,
        "programs": rows,
    }
    cpu = re.sub(r"\((r|tm)\)", "", first["machine"].split(",")[0].lower())
    name = args.out or re.sub(r"[^a-z0-9]+", "-", cpu).strip("-")
    out = HERE.parent / "measurements" / "speed" / f"{name}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    for row in rows:
        print(f"{row['program']:>14}: prefill {row['prefill_tokens_per_s']:7.1f}, "
              f"decode {row['decode_tokens_per_s']:6.1f} tokens/s")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
