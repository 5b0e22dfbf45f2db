"""Chapter 12's speed table, measured side by side: this chapter's fast path and chapter 5's
blocks on dfdx against sentence-transformers on PyTorch, embedding the same 256 entries of chapter
10's text in batches of 32, 2 threads each. Rounds alternate between the programs, and every
round is kept: the page shows the best, the median and the slowest of each program, and the ratio
round by round. Writes measurements/speed/<machine>.json with the libraries each program ran on,
from which the page's table is generated
(`cargo run --release -p ch12-real-bert --example embed_speed_table`).

    python3 chapters/12-real-bert/compare/compare_speed.py [--rounds 10] [--out NAME | --path FILE]

Run it on a quiet machine (nothing else running): the rounds measure the machine as much as the
programs. `--path` writes elsewhere, for a trial run that is not to be committed.

Needs the model's files (`cargo xtask models`). Makes its venv under ~/.cache/attention-in-rust/
on first use: torch-venv with sentence-transformers (several GB; shared with chapters 8 and 11).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CACHE = Path.home() / ".cache" / "attention-in-rust"
MODEL = CACHE / "models" / "all-minilm-l6-v2"
THREADS = 2
PACKAGES = ["torch", "numpy", "transformers==5.24.0", "sentence-transformers==6.2.0"]


def torch_python():
    """The venv's python, made and filled on first use."""
    path = CACHE / "torch-venv"
    python = path / "bin" / "python"
    if not python.exists():
        venv.create(path, with_pip=True)
    check = "import importlib.metadata as m, sys; [m.version(p.split('==')[0]) for p in sys.argv[1:]]"
    if subprocess.run([str(python), "-c", check, *PACKAGES], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    return str(python)


def rust_versions():
    """rustc's version, and dfdx's from the workspace's Cargo.lock."""
    rustc = subprocess.run(["rustc", "--version"], check=True, capture_output=True, text=True)
    lock = (ROOT / "Cargo.lock").read_text()
    dfdx = re.search(r'name = "dfdx"\nversion = "([^"]+)"', lock)
    return {"rustc": rustc.stdout.split()[1], "dfdx": dfdx.group(1) if dfdx else "?"}


def run_json(command, env):
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--out", help="the file's name, without .json (default: the CPU's)")
    parser.add_argument("--path", help="write the run to this file instead (a trial run)")
    args = parser.parse_args()
    if args.rounds < 3:
        sys.exit("--rounds: at least 3, so that a median means something")
    if not (MODEL / "model.safetensors").exists():
        sys.exit(f"{MODEL} is missing: run `cargo xtask models`")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "ch12-real-bert", "--example", "embed_speed"],
                   check=True, cwd=ROOT)
    ours = [str(ROOT / "target" / "release" / "examples" / "embed_speed"), "--json"]
    env = dict(os.environ, RAYON_NUM_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS),
               HF_HUB_OFFLINE="1")
    python = torch_python()
    rounds, first = {}, None
    with tempfile.TemporaryDirectory() as tmp:
        texts_path = Path(tmp) / "texts.json"
        for r in range(args.rounds):
            result = run_json(ours, env)
            if first is None:
                first = result
                texts_path.write_text(json.dumps(result["texts"]))
            for program in result["programs"]:
                rounds.setdefault(program["program"], []).append(program)
            st = run_json([python, str(HERE / "st_round.py"), str(MODEL), str(texts_path),
                           str(THREADS)], env)
            rounds.setdefault(st["program"], []).append(st)
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    rows = [{
        "program": name,
        "sentences_per_s": max(x["sentences_per_s"] for x in runs),
        "rounds": [round(x["sentences_per_s"], 3) for x in runs],
        "versions": runs[0].get("versions") or rust_versions(),
    } for name, runs in rounds.items()]
    record = {
        "machine": first["machine"],
        "isa": first["isa"],
        "threads": THREADS,
        "sentences": first["sentences"],
        "tokens": first["tokens"],
        "batch": 32,
        "rounds": args.rounds,
        "programs": rows,
    }
    cpu = re.sub(r"\((r|tm)\)", "", first["machine"].split(",")[0].lower())
    name = args.out or re.sub(r"[^a-z0-9]+", "-", cpu).strip("-")
    out = Path(args.path).resolve() if args.path else HERE.parent / "measurements" / "speed" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    for row in rows:
        print(f"{row['program']:>26}: {row['sentences_per_s']:7.1f} sentences/s {row['rounds']}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
