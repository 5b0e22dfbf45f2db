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
What every chapter's comparison does alike is in support/compare/speed_run.py.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "support" / "compare"))
import speed_run  # noqa: E402

MODEL = speed_run.MODELS / "whisper-tiny-en"
VENVS = {
    "torch-venv": ["torch", "numpy", "transformers==5.24.0", "safetensors"],
    "whisper-venv": ["faster-whisper==1.2.1", "ctranslate2==4.8.5"],
}


def main():
    args = speed_run.arguments(rounds=7)
    speed_run.require_model(MODEL, "model.bin")
    ours = speed_run.example("ch13-real-whisper", "transcribe_speed")
    env = speed_run.thread_env(HF_HUB_OFFLINE="1")
    torch_python, whisper_python = (speed_run.python_of(n, p) for n, p in VENVS.items())
    threads = str(speed_run.THREADS)
    others = [
        [torch_python, str(HERE / "hf_round.py"), threads],
        [whisper_python, str(HERE / "fw_round.py"), str(MODEL), "float32", threads],
        [whisper_python, str(HERE / "fw_round.py"), str(MODEL), "int8", threads],
    ]
    rounds, texts = {}, {}

    def one_round(r):
        result = speed_run.run_json(ours, env)
        for program in result["programs"]:
            rounds.setdefault(program["program"], []).append(program)
        for command in others:
            other = speed_run.run_json(command, env)
            rounds.setdefault(other["program"], []).append(other)
            texts[other["program"]] = other["tokens"]
        return result

    first = speed_run.alternate(args.rounds, one_round)[0]
    rows = []
    for name, runs in rounds.items():
        row = speed_run.row(name, runs, "seconds", best=min, digits=4)
        if "stages" in runs[0]:
            best = min(runs, key=lambda x: x["seconds"])
            row["stages"] = {k: round(v, 4) for k, v in best["stages"].items()}
        if name in texts:
            row["tokens"] = texts[name]
        rows.append(row)
    record = speed_run.record(first, args.rounds, rows, clips=first["clips"],
                              audio_seconds=round(first["audio_seconds"], 2))
    speed_run.finish(record, HERE.parent, args, lambda row: (
        f"{row['program']:>28}: {row['seconds']:6.3f} s {row['rounds']}"))


if __name__ == "__main__":
    main()
