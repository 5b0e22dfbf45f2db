"""Runs the test binaries of the GPU kit (`cargo xtask gpu-kit`) on a machine with an NVIDIA GPU.

Needs only python3; the CUDA libraries (nvrtc, cuBLAS) come from the python3 that holds PyTorch
(its `nvidia/cu13/lib`), or from $CUDA_LIBS; the driver's libcuda.so.1 from the system.

    bash run.sh [--only NAME]... [-- ARGS FOR EVERY TEST BINARY]
    bash run.sh --timings

Writes logs/<binary>.log and summary.txt / summary.json beside this file, prints the summary, and
exits 0 only if every binary ran and every test passed.

With --timings it runs the timing programs instead (chapter 1's attention on the GPU, chapter 8's
CUDA kernel beside it, chapters 7 and 9's training steps) and sdpa_gpu.py (PyTorch's attention on the same GPU), and writes what
they print to timings/.
"""

import ctypes
import datetime
import json
import lzma
import os
import pathlib
import platform
import re
import stat
import subprocess
import sys
import time

KIT = pathlib.Path(__file__).resolve().parent
NEEDED = ["libnvrtc.so.13", "libnvrtc-builtins.so.13.0", "libcublas.so.13", "libcublasLt.so.13"]
RESULT = re.compile(r"test result: (\w+)\. (\d+) passed; (\d+) failed; (\d+) ignored")
TIMEOUT = int(os.environ.get("KIT_TIMEOUT", "1800"))


def fail(message):
    print(f"gpu-kit: {message}", file=sys.stderr)
    sys.exit(2)


def cuda_libs():
    """The folder with nvrtc and cuBLAS: $CUDA_LIBS, or PyTorch's nvidia/cu13/lib."""
    candidates = []
    if os.environ.get("CUDA_LIBS"):
        candidates.append(pathlib.Path(os.environ["CUDA_LIBS"]))
    else:
        try:
            import nvidia  # the namespace package of NVIDIA's wheels, beside torch

            candidates += [pathlib.Path(p) / "cu13" / "lib" for p in nvidia.__path__]
        except ImportError:
            pass
    for folder in candidates:
        if all((folder / lib).exists() for lib in NEEDED):
            return folder
    where = ", ".join(str(c) for c in candidates) or "no candidate folder"
    fail(
        f"the CUDA 13 libraries {', '.join(NEEDED)} were not found ({where}): run with the python3 "
        "that holds PyTorch (cu130), or set CUDA_LIBS to a folder holding them"
    )


def cuda_include(libs):
    """The folder with cuda_fp16.h(pp), which nvrtc includes for five of dfdx's kernels."""
    for folder in [os.environ.get("CUDA_INCLUDE"), libs.parent / "include"]:
        if folder and (pathlib.Path(folder) / "cuda_fp16.h").exists():
            return pathlib.Path(folder)
    fail(f"cuda_fp16.h not found in {libs.parent / 'include'}: set CUDA_INCLUDE to its folder")


def driver():
    """None if the NVIDIA driver's libcuda.so.1 loads, else why not."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return None
    except OSError as e:
        return f"no NVIDIA driver: libcuda.so.1 cannot be loaded ({e})"


def machine():
    lines = [f"host: {platform.node()}, {platform.machine()}, {os.cpu_count()} CPUs"]
    try:
        gpu = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=60,
        )
        header = subprocess.run(["nvidia-smi"], capture_output=True, text=True, timeout=60).stdout
        cuda = re.search(r"CUDA Version: ([\d.]+)", header)
        lines.append(f"GPU: {gpu.stdout.strip()} (name, driver, memory)")
        lines.append(f"driver's CUDA version: {cuda.group(1) if cuda else 'unknown'}")
    except (OSError, subprocess.SubprocessError):
        lines.append("GPU: nvidia-smi not found")
    try:
        import torch

        lines.append(f"torch {torch.__version__}, CUDA {torch.version.cuda}")
    except ImportError:
        lines.append("torch: not installed")
    return lines


def data_root(manifest):
    """The tests read files under the repository path they were built in: point it at data/."""
    built = pathlib.Path(manifest["built_root"])
    data = KIT / "data"
    if built.is_symlink() and built.resolve() == data.resolve():
        return built
    if built.exists():
        missing = [d for d in manifest["data"] if not (built / d).exists()]
        if missing:
            fail(f"{built} exists but lacks {', '.join(missing)}: remove it or run where it is absent")
        return built
    try:
        built.parent.mkdir(parents=True, exist_ok=True)
        built.symlink_to(data, target_is_directory=True)
    except OSError as e:
        fail(f"cannot link {built} to {data} ({e}); the tests read their data files there")
    return built


def unpack(manifest, only, timings):
    work = KIT / "work"
    work.mkdir(exist_ok=True)
    out = []
    for b in manifest["binaries"]:
        if only and not any(o in b["name"] for o in only):
            continue
        if b.get("timing", False) != timings:
            continue
        packed = KIT.parent / b["part"] / "bin" / b["file"]
        if not packed.exists():
            fail(f"{packed} is missing: carry every part of the kit ({b['part']})")
        exe = work / b["name"]
        if not exe.exists():
            exe.write_bytes(lzma.decompress(packed.read_bytes()))
            exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
        out.append((b["name"], b["dir"], exe, b.get("args", [])))
    return out


def run_one(name, command, cwd, env, log):
    start = time.monotonic()
    try:
        proc = subprocess.run(
            command, cwd=cwd, env=env, timeout=TIMEOUT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        )
        output, code = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        output += f"\ngpu-kit: killed after {TIMEOUT} s\n"
        code = "timeout"
    seconds = time.monotonic() - start
    log.write_text(output)
    counts = [0, 0, 0]
    results = RESULT.findall(output)
    for _, passed, failed, ignored in results:
        counts = [counts[0] + int(passed), counts[1] + int(failed), counts[2] + int(ignored)]
    if code == 0:
        status = "ok"
    elif not results:
        first = next((l.strip() for l in output.splitlines() if l.strip()), "no output")
        loader = "error while loading shared libraries: "
        if loader in first:
            status = f"did not start: {first.split(loader, 1)[1][:200]}"
        else:
            status = f"crashed before a test result (exit {code}): {first[:200]}"
    else:
        status = f"FAILED (exit {code})"
    failed_tests = re.findall(r"^test (\S+) \.\.\. FAILED", output, re.M)
    return {"binary": name, "passed": counts[0], "failed": counts[1], "ignored": counts[2],
            "seconds": round(seconds, 1), "status": status, "failed_tests": failed_tests}


def main():
    argv = sys.argv[1:]
    only, args, timings = [], [], False
    if "--" in argv:
        argv, args = argv[: argv.index("--")], argv[argv.index("--") + 1:]
    while argv:
        if argv[0] == "--timings":
            timings = True
            argv = argv[1:]
        elif argv[0] == "--only" and len(argv) > 1:
            only.append(argv[1])
            argv = argv[2:]
        else:
            fail(f"unknown argument {argv[0]!r}; usage: run.sh [--timings] [--only NAME]... [-- TEST ARGS]")
    manifest = json.loads((KIT / "kit.json").read_text())
    libs = cuda_libs()
    include = cuda_include(libs)
    no_driver = driver()
    if no_driver:
        print(f"gpu-kit: {no_driver}; the binaries that use the GPU will not start", file=sys.stderr)
    root = data_root(manifest)
    binaries = unpack(manifest, only, timings)
    (KIT / "logs").mkdir(exist_ok=True)
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = ":".join(filter(None, [str(libs), env.get("LD_LIBRARY_PATH")]))
    env["DFDX_CUDA_INCLUDE_DIR"] = str(include)
    env["DFDX_KERNEL_INCLUDE_DIR"] = str(KIT / "cuh")
    env.setdefault("RUST_BACKTRACE", "1")
    if timings:
        return run_timings(binaries, root, env)
    rows = []
    for name, folder, exe, _ in binaries:
        # where cargo would run it: the package's folder (the tests' files are under the root)
        cwd = root / folder
        print(f"gpu-kit: running {name}", flush=True)
        log = KIT / "logs" / f"{name}.log"
        rows.append(run_one(name, [str(exe), "--test-threads=1", *args], cwd, env, log))
        r = rows[-1]
        print(f"  {r['passed']} passed, {r['failed']} failed, {r['ignored']} ignored in "
              f"{r['seconds']} s: {r['status']}", flush=True)
    header = [
        f"GPU kit run {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
        *machine(),
        f"kit: commit {manifest['commit']}, sm_{manifest['compute_cap']}, "
        f"{len(binaries)} test binaries, --test-threads=1, libraries from {libs}",
    ]
    if no_driver:
        header.append(no_driver)
    table = [f"{'binary':<32} {'passed':>6} {'failed':>6} {'ignored':>7} {'seconds':>8}  status"]
    for r in rows:
        table.append(f"{r['binary']:<32} {r['passed']:>6} {r['failed']:>6} {r['ignored']:>7} "
                     f"{r['seconds']:>8}  {r['status']}")
        table += [f"{'':<32} failed: {t}" for t in r["failed_tests"]]
    totals = [sum(r[k] for r in rows) for k in ("passed", "failed", "ignored")]
    table.append(f"{'total':<32} {totals[0]:>6} {totals[1]:>6} {totals[2]:>7}")
    summary = "\n".join(header + [""] + table) + "\n"
    (KIT / "summary.txt").write_text(summary)
    (KIT / "summary.json").write_text(json.dumps({"header": header, "binaries": rows}, indent=2) + "\n")
    print("\n" + summary)
    ok = rows and all(r["status"] == "ok" for r in rows)
    sys.exit(0 if ok else 1)


def run_timings(binaries, root, env):
    """Runs the timing programs and sdpa_gpu.py, printing and keeping what they print."""
    out = KIT / "timings"
    out.mkdir(exist_ok=True)
    header = "\n".join(machine()) + "\n"
    (out / "machine.txt").write_text(header)
    print(header)
    commands = [(name, [str(exe), *extra], root / folder) for name, folder, exe, extra in binaries]
    commands.append(("pytorch.sdpa_gpu", [sys.executable, str(KIT / "sdpa_gpu.py"),
                                          "--out", str(out / "sdpa_gpu.json")], KIT))
    ok = True
    for name, command, cwd in commands:
        print(f"gpu-kit: timing {name}", flush=True)
        r = run_one(name, command, cwd, env, out / f"{name}.txt")
        print((out / f"{name}.txt").read_text(), flush=True)
        ok = ok and r["status"] == "ok"
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
