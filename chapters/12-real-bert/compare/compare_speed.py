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
What every chapter's comparison does alike is in support/compare/speed_run.py.
"""

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "support" / "compare"))
import speed_run  # noqa: E402

MODEL = speed_run.MODELS / "all-minilm-l6-v2"
PACKAGES = ["torch", "numpy", "transformers==5.24.0", "sentence-transformers==6.2.0"]


def main():
    args = speed_run.arguments(rounds=10)
    speed_run.require_model(MODEL, "model.safetensors")
    ours = speed_run.example("ch12-real-bert", "embed_speed")
    env = speed_run.thread_env(HF_HUB_OFFLINE="1")
    python = speed_run.python_of("torch-venv", PACKAGES)
    rounds = {}
    with tempfile.TemporaryDirectory() as tmp:
        texts_path = Path(tmp) / "texts.json"

        def one_round(r):
            result = speed_run.run_json(ours, env)
            if r == 0:
                texts_path.write_text(json.dumps(result["texts"]))
            for program in result["programs"]:
                rounds.setdefault(program["program"], []).append(program)
            st = speed_run.run_json([python, str(HERE / "st_round.py"), str(MODEL), str(texts_path),
                                     str(speed_run.THREADS)], env)
            rounds.setdefault(st["program"], []).append(st)
            return result

        first = speed_run.alternate(args.rounds, one_round)[0]
    rows = [speed_run.row(name, runs, "sentences_per_s") for name, runs in rounds.items()]
    record = speed_run.record(first, args.rounds, rows, sentences=first["sentences"],
                              tokens=first["tokens"], batch=32)
    speed_run.finish(record, HERE.parent, args, lambda row: (
        f"{row['program']:>26}: {row['sentences_per_s']:7.1f} sentences/s {row['rounds']}"))


if __name__ == "__main__":
    main()
