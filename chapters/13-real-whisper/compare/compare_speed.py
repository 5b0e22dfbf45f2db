"""Chapter 13's speed table, measured side by side: the five clips transcribed (spectrogram,
encoder, greedy decoding, no timestamps) by this chapter's fast path and by chapter 5's blocks on
dfdx, by Hugging Face transformers (PyTorch eager, float32) and by faster-whisper (CTranslate2,
float32 and int8), all from the same `model.bin`, 2 threads each. Rounds alternate between the
programs and every round is kept: the page shows the best, the median and the slowest of each, and
the ratio to transformers round by round. Writes measurements/speed/<machine>.json, from which the
page's table is generated (`cargo run --release -p ch13-real-whisper --example transcribe_speed_table`).

    python3 chapters/13-real-whisper/compare/compare_speed.py [--rounds 7] [--out NAME | --path FILE]

Run it on a quiet machine. Needs the model's files (`cargo xtask models`) and two venvs under
~/.cache/attention-in-rust/: torch-venv (torch, transformers 5.24.0; shared with chapters 8, 11 and
12) and whisper-venv (faster-whisper 1.2.1, ctranslate2 4.8.5), made and filled on first use.
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



def chapter_12_comparison():
    """Chapter 12's comparison script, as a module: it reads a round's JSON line and the Rust
    versions the way this one does."""
    import importlib.util

    path = ROOT / "chapters" / "12-real-bert" / "compare" / "compare_speed.py"
    spec = importlib.util.spec_from_file_location("ch12_compare_speed", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CH12 = chapter_12_comparison()
run_json, rust_versions = CH12.run_json, CH12.rust_versions
CACHE = Path.home() / ".cache" / "attention-in-rust"
MODEL = CACHE / "models" / "whisper-tiny-en"
THREADS = 2
VENVS = {
    "torch-venv": ["torch", "numpy", "transformers==5.24.0", "safetensors"],
    "whisper-venv": ["faster-whisper==1.2.1", "ctranslate2==4.8.5"],
}


def python_of(name):
    """The venv's python, made and filled on first use."""
    path = CACHE / name
    python = path / "bin" / "python"
    if not python.exists():
        venv.create(path, with_pip=True)
    packages = VENVS[name]
    check = "import importlib.metadata as m, sys; [m.version(p.split('==')[0]) for p in sys.argv[1:]]"
    if subprocess.run([str(python), "-c", check, *packages], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)
    return str(python)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", help="the file's name, without .json (default: the CPU's)")
    parser.add_argument("--path", help="write the run to this file instead (a trial run)")
    args = parser.parse_args()
    if args.rounds < 3:
        sys.exit("--rounds: at least 3, so that a median means something")
    if not (MODEL / "model.bin").exists():
        sys.exit(f"{MODEL} is missing: run `cargo xtask models`")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "ch13-real-whisper", "--example", "transcribe_speed"],
                   check=True, cwd=ROOT)
    ours = [str(ROOT / "target" / "release" / "examples" / "transcribe_speed"), "--json"]
    env = dict(os.environ, RAYON_NUM_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS),
               HF_HUB_OFFLINE="1")
    torch_python, whisper_python = python_of("torch-venv"), python_of("whisper-venv")
    others = [
        [torch_python, str(HERE / "hf_round.py"), str(THREADS)],
        [whisper_python, str(HERE / "fw_round.py"), str(MODEL), "float32", str(THREADS)],
        [whisper_python, str(HERE / "fw_round.py"), str(MODEL), "int8", str(THREADS)],
    ]
    rounds, first, texts = {}, None, {}
    for r in range(args.rounds):
        result = run_json(ours, env)
        first = first or result
        for program in result["programs"]:
            rounds.setdefault(program["program"], []).append(program)
        for command in others:
            other = run_json(command, env)
            rounds.setdefault(other["program"], []).append(other)
            texts[other["program"]] = other["tokens"]
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    rows = []
    for name, runs in rounds.items():
        row = {
            "program": name,
            "seconds": min(x["seconds"] for x in runs),
            "rounds": [round(x["seconds"], 4) for x in runs],
            "versions": runs[0].get("versions") or rust_versions(),
        }
        if "stages" in runs[0]:
            best = min(runs, key=lambda x: x["seconds"])
            row["stages"] = {k: round(v, 4) for k, v in best["stages"].items()}
        if name in texts:
            row["tokens"] = texts[name]
        rows.append(row)
    record = {
        "machine": first["machine"],
        "isa": first["isa"],
        "threads": THREADS,
        "clips": first["clips"],
        "audio_seconds": round(first["audio_seconds"], 2),
        "rounds": args.rounds,
        "programs": rows,
    }
    cpu = re.sub(r"\((r|tm)\)", "", first["machine"].split(",")[0].lower())
    name = args.out or re.sub(r"[^a-z0-9]+", "-", cpu).strip("-")
    out = Path(args.path).resolve() if args.path else HERE.parent / "measurements" / "speed" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    for row in rows:
        print(f"{row['program']:>28}: {row['seconds']:6.3f} s {row['rounds']}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
