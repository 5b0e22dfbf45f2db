"""Chapter 11's speed table, measured side by side: this chapter's decode path (on the file's
quantized blocks and in float32, each also with its software prefetch off), chapter 10's model,
Hugging Face transformers (PyTorch eager, float32, the file dequantized) and llama.cpp
(llama-cpp-python, the file as stored), on the same 32-token prompt and 64 greedy tokens, 2 threads
each; then the prefill of two longer prompts (the first 256 and 1,024 tokens of chapter 10's text),
this chapter's quantized path and llama.cpp on the same ids. Rounds alternate between the programs; every round of each is kept, and the table shows the
best, the median and the spread. llama.cpp runs with its defaults, as a user would; where they
fail (its extra buffer types crashed on one Intel Xeon), it runs again with them off, and the file
records which configuration ran and why. Each round of this chapter's `f32` path is followed at
once by a sum over 1 GiB, so that the path's share of the bandwidth is measured in one moment of
a shared machine, not only against the readers run at the end. The profile of a decode step is a separate pass run after
each round's timed generation; the fastest pass (by its whole step) is kept. Writes
measurements/speed/<machine>.json, from which the page's table is generated
(`cargo run --release -p ch11-real-llm --example speed_table`).

    python3 chapters/11-real-llm/compare/compare_speed.py [--rounds 7] [--out NAME]

Needs the model file (`cargo xtask models`). Makes its venvs under ~/.cache/attention-in-rust/ on
first use: torch-venv (torch, transformers 5.24.0, gguf, accelerate; shared with chapter 8's
script, several GB) and llama-cpp-venv (llama-cpp-python 0.3.36, which pip builds from source:
about 8 minutes on 2 cores). What every chapter's comparison does alike is in
support/compare/speed_run.py.
"""

import json
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "support" / "compare"))
import speed_run  # noqa: E402

ROOT = speed_run.ROOT
MODEL = speed_run.MODELS / "smollm2-135m-instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
THREADS = speed_run.THREADS
NEW_TOKENS = 64
VENVS = {
    "torch-venv": ["torch", "numpy", "transformers==5.24.0", "gguf==0.19.0", "accelerate"],
    "llama-cpp-venv": ["llama-cpp-python==0.3.36", "numpy"],
}
# llama.cpp's configurations: as a user gets it, and the fallback where that fails
DEFAULTS, NO_EXTRA_BUFFERS = "defaults", "no-extra-buffer-types"


def failure(out):
    """How a run that failed ended, in a few words."""
    if out.returncode < 0:
        how = f"killed by {signal.Signals(-out.returncode).name}"
    else:
        how = f"exit status {out.returncode}"
    last = (out.stderr.strip().splitlines() or [""])[-1][:120]
    return f"{how}: {last}" if last else how


def llama_cpp_round(command, env, configuration):
    """One llama.cpp round in `configuration` (a list: [name, why]), which the first round decides:
    its defaults, or, if they fail, its extra buffer types off."""
    if configuration[0] is None:
        out = subprocess.run(command + [DEFAULTS], capture_output=True, text=True, env=env)
        if out.returncode == 0:
            configuration[:] = [DEFAULTS, None]
            return json.loads(out.stdout.strip().splitlines()[-1])
        configuration[:] = [NO_EXTRA_BUFFERS, failure(out)]
        print(f"llama.cpp with its defaults failed ({configuration[1]}); "
              "running it with its extra buffer types off", file=sys.stderr)
    return speed_run.run_json(command + [configuration[0]], env)


def best_profile(runs):
    """The fastest of the rounds' profiled passes, by its whole step."""
    passes = [x["profile"] for x in runs if x.get("profile")]
    return min(passes, key=lambda p: sum(part["ms_per_token"] for part in p)) if passes else None


def main():
    args = speed_run.arguments(rounds=7, least=1, trial_path=False)
    speed_run.require_model(MODEL)
    ours = speed_run.example("ch11-real-llm", "speed")
    ours_prompts = speed_run.example("ch11-real-llm", "prompt_speed")
    env = speed_run.thread_env()
    env.pop("ATTENTION_PREFETCH", None)
    no_prefetch = dict(env, ATTENTION_PREFETCH="0")
    torch_python, llama_python = (speed_run.python_of(n, p) for n, p in VENVS.items())
    rounds = {}
    readers = {}
    configuration = [None, None]
    prompts = {}  # the longer prompts' rounds, by their length

    def one_round(r):
        result = speed_run.run_json(ours, env)
        for reader in result["bandwidth_readers"]:
            readers[reader["reader"]] = max(readers.get(reader["reader"], 0), reader["bytes_per_s"])
        for path in result["paths"]:
            rounds.setdefault(path["path"], []).append(path)
        ids = json.dumps(result["prompt_ids"])
        command = [str(MODEL), ids, str(NEW_TOKENS), str(THREADS)]
        rounds.setdefault("transformers", []).append(
            speed_run.run_json([torch_python, str(HERE / "hf_round.py"), *command], env))
        rounds.setdefault("llama.cpp", []).append(
            llama_cpp_round([llama_python, str(HERE / "llama_cpp_round.py"), *command], env, configuration))
        # the longer prompts' prefill, this chapter's and llama.cpp's (in the configuration the
        # round above ran), on the same ids
        long = speed_run.run_json(ours_prompts, env)
        theirs = speed_run.run_json(
            [llama_python, str(HERE / "llama_cpp_prompts.py"), str(MODEL),
             json.dumps([p["ids"] for p in long["prompts"]]), str(THREADS), configuration[0]], env)
        for mine, other in zip(long["prompts"], theirs["prompts"]):
            assert mine["tokens"] == other["tokens"]
            entry = prompts.setdefault(mine["tokens"], {"quantized": [], "llama.cpp": []})
            entry["quantized"].append(mine)
            entry["llama.cpp"].append(other)
        # the decode path again without its software prefetch, to measure what the prefetch brings
        unfetched = speed_run.run_json(ours, no_prefetch)
        assert unfetched["prefetch_bytes"] == 0, "ATTENTION_PREFETCH=0 was not taken"
        for path in unfetched["paths"]:
            if path["path"] in ("quantized", "f32"):
                rounds.setdefault(f"{path['path']}, prefetch off", []).append(path)
        return result

    first = speed_run.alternate(args.rounds, one_round)[0]
    rows = []
    for name, runs in rounds.items():
        row = {
            "program": name,
            "prefill_tokens_per_s": max(x["prefill_tokens_per_s"] for x in runs),
            "decode_tokens_per_s": max(x["decode_tokens_per_s"] for x in runs),
            "prefill_rounds": [round(x["prefill_tokens_per_s"], 3) for x in runs],
            "decode_rounds": [round(x["decode_tokens_per_s"], 3) for x in runs],
            "weight_bytes_per_token": runs[0].get("weight_bytes_per_token"),
            "tokens": runs[0]["tokens"],
            "tokens_equal_every_round": all(x["tokens"] == runs[0]["tokens"] for x in runs),
            # a separate profiled pass after each round's timed generation: the fastest of them
            "profile": best_profile(runs),
            "profile_passes": sum(1 for x in runs if x.get("profile")),
            "versions": runs[0].get("versions", {}),
        }
        if runs[0].get("paired_sum_reader_bytes_per_s"):
            # the f32 rounds: the sum reader run right after each, in the same moment
            row["paired_sum_reader_rounds"] = [round(x["paired_sum_reader_bytes_per_s"])
                                               for x in runs]
        if name == "llama.cpp":
            row["configuration"] = configuration[0]
            row["configuration_why"] = configuration[1]
        rows.append(row)
    record = speed_run.record(
        first, args.rounds, rows,
        prompt_ids=first["prompt_ids"],
        new_tokens=NEW_TOKENS,
        prefetch_bytes=first["prefetch_bytes"],
        read_bandwidth_bytes_per_s=max(readers.values()),
        # each reader's best over the rounds; the bandwidth above is the best of them
        bandwidth_readers=[{"reader": k, "bytes_per_s": v} for k, v in readers.items()],
        prompts=[{
            "tokens": n,
            "rounds": {name: [round(x["tokens_per_s"], 3) for x in runs] for name, runs in entry.items()},
            # the greedy token each predicts next, and whether every round predicted it
            "next": {name: runs[0]["next"] for name, runs in entry.items()},
            "next_equal_every_round": all(x["next"] == runs[0]["next"]
                                          for runs in entry.values() for x in runs),
        } for n, entry in sorted(prompts.items())],
    )
    out = speed_run.write(record, HERE.parent, args)
    for row in rows:
        print(f"{row['program']:>22}: prefill {row['prefill_tokens_per_s']:7.1f}, "
              f"decode {row['decode_tokens_per_s']:6.1f} tokens/s (best of {args.rounds})")
    if configuration[0] == NO_EXTRA_BUFFERS:
        print(f"llama.cpp ran with its extra buffer types off: its defaults failed ({configuration[1]})")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
