"""What every chapter's `compare/compare_speed.py` does alike (chapters 11, 12 and 13): the venvs
the Python programs run in, the chapter's timing example built and run, the programs alternated
round by round, and the run written as `measurements/speed/<machine>.json`, the file that
`support::speed` (Rust) reads back. A chapter's script keeps only what it times and records.

    sys.path.insert(0, str(ROOT / "support" / "compare"))
    import speed_run

Nothing here runs on import; it needs only the standard library.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path.home() / ".cache" / "attention-in-rust"
MODELS = CACHE / "models"
THREADS = 2


def arguments(rounds, least=3, trial_path=True):
    """The command line every script takes: `--rounds` (default `rounds`, at least `least`),
    `--out NAME` and, where `trial_path`, `--path FILE` for a trial run that is not committed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--out", help="the file's name, without .json (default: the CPU's)")
    if trial_path:
        parser.add_argument("--path", help="write the run to this file instead (a trial run)")
    args = parser.parse_args()
    if args.rounds < least:
        why = ", so that a median means something" if least >= 3 else ""
        sys.exit(f"--rounds: at least {least}{why}")
    return args


def require_model(path, file=None):
    """Exits naming `path` and the command that fetches it, unless it (or `file` in it) exists."""
    if not (path / file if file else path).exists():
        sys.exit(f"{path} is missing: run `cargo xtask models`")


def python_of(name, packages):
    """The python of the venv `name` under the cache, made on first use and filled with
    `packages` (pip requirements) where one is missing."""
    path = CACHE / name
    python = path / "bin" / "python"
    if not python.exists():
        venv.create(path, with_pip=True)
    check = "import importlib.metadata as m, sys; [m.version(p.split('==')[0]) for p in sys.argv[1:]]"
    if subprocess.run([str(python), "-c", check, *packages], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)
    return str(python)


def thread_env(threads=THREADS, **more):
    """This environment with every program held to `threads` threads (rayon's and OpenMP's),
    plus `more`."""
    return dict(os.environ, RAYON_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads), **more)


def target_dir():
    """Where cargo puts what it builds: `CARGO_TARGET_DIR` where it is set (relative to the
    workspace, as cargo reads it), else the workspace's `target/`."""
    return ROOT / os.environ.get("CARGO_TARGET_DIR", "target")


def example(package, name):
    """The chapter's timing example, built in release mode: the command that runs one round of
    it and prints JSON."""
    subprocess.run(["cargo", "build", "--release", "-q", "-p", package, "--example", name],
                   check=True, cwd=ROOT)
    return [str(target_dir() / "release" / "examples" / name), "--json"]


def run_json(command, env=None):
    """Runs `command` and reads the JSON of its last line of output."""
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def rust_versions():
    """rustc's version, and dfdx's from the workspace's Cargo.lock."""
    rustc = subprocess.run(["rustc", "--version"], check=True, capture_output=True, text=True)
    lock = (ROOT / "Cargo.lock").read_text()
    dfdx = re.search(r'name = "dfdx"\nversion = "([^"]+)"', lock)
    return {"rustc": rustc.stdout.split()[1], "dfdx": dfdx.group(1) if dfdx else "?"}


def alternate(rounds, one_round):
    """Calls `one_round(r)` for each round r, which runs every program once in turn, so that
    each program's rounds are spread over the same minutes as the others'; says how far it got.
    Returns what each round returned (the chapter's example's result: the first names the
    machine)."""
    results = []
    for r in range(rounds):
        results.append(one_round(r))
        print(f"round {r + 1} of {rounds} done", file=sys.stderr)
    return results


def row(name, runs, key, best=max, digits=3):
    """A program's entry in the file, from its rounds' results: its best `key` (`best` of them:
    `max` for a rate, `min` for seconds), every round's to `digits` decimals, and the libraries
    it ran on (the Rust programs': `rust_versions()`)."""
    return {
        "program": name,
        key: best(x[key] for x in runs),
        "rounds": [round(x[key], digits) for x in runs],
        "versions": runs[0].get("versions") or rust_versions(),
    }


def record(first, rounds, programs, threads=THREADS, **setup):
    """The file's content: where it ran (`first`, a round of the chapter's example, names the
    machine and the instruction set), the chapter's `setup`, the rounds and the programs."""
    return {"machine": first["machine"], "isa": first["isa"], "threads": threads, **setup,
            "rounds": rounds, "programs": programs}


def file_name(machine):
    """`Intel(R) Xeon(R) Processor, 2 cores (...)` -> `intel-xeon-processor`."""
    cpu = re.sub(r"\((r|tm)\)", "", machine.split(",")[0].lower())
    return re.sub(r"[^a-z0-9]+", "-", cpu).strip("-")


def write(content, chapter, args):
    """Writes `content` to `--path`, or to the chapter's `measurements/speed/<--out or the
    CPU's name>.json`; returns where."""
    trial = getattr(args, "path", None)
    name = args.out or file_name(content["machine"])
    out = Path(trial).resolve() if trial else chapter / "measurements" / "speed" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(content, indent=1) + "\n")
    return out


def finish(content, chapter, args, line):
    """`write`s the run, then prints `line(program)` for each program and where it wrote."""
    out = write(content, chapter, args)
    for program in content["programs"]:
        print(line(program))
    print(f"wrote {out}")
