"""Compiles chapter 8's CUDA kernels with the real nvrtc and ptxas of the cached toolkit, on the
machine that builds the GPU kit (no GPU needed), so that a kernel that does not compile is found
before a GPU session, and the resources each uses are known.

    python3 nvrtc_check.py SOURCES CUDA_ROOT COMPUTE_CAP OUT

SOURCES is what `cargo run -p ch08-efficient --example gpu_sources -- SOURCES` wrote. For each
kernel it runs nvrtc as the chapter does at run time (same source, same architecture option),
checks that the PTX defines every function the chapter loads, assembles it with
`ptxas -arch=sm_COMPUTE_CAP -v` and keeps what ptxas says (registers, spills, shared memory).
Writes the report to OUT, prints it, and exits 1 if any kernel failed.
"""

import ctypes
import json
import pathlib
import re
import subprocess
import sys
import tempfile


def nvrtc(lib, source, name, options):
    """(PTX or None, nvrtc's log)."""
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None):
        return None, "nvrtcCreateProgram failed"
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    status = lib.nvrtcCompileProgram(prog, len(options), opts)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    ptx = None
    if status == 0:
        lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
        buffer = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetPTX(prog, buffer)
        ptx = buffer.value.decode()
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return ptx, log.value.decode(errors="replace").strip()


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: nvrtc_check.py SOURCES CUDA_ROOT COMPUTE_CAP OUT")
    sources, cuda, cap, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    lib_dir = cuda / "lib"
    # nvrtc opens its builtins library by name: load it first from the same folder
    ctypes.CDLL(str(lib_dir / "libnvrtc-builtins.so.13.0"), mode=ctypes.RTLD_GLOBAL)
    lib = ctypes.CDLL(str(lib_dir / "libnvrtc.so.13"))
    version = (ctypes.c_int(), ctypes.c_int())
    lib.nvrtcVersion(ctypes.byref(version[0]), ctypes.byref(version[1]))
    lines = [f"chapter 8's kernels: nvrtc {version[0].value}.{version[1].value}, ptxas for sm_{cap}"]
    failed = 0
    for kernel in json.loads((sources / "kernels.json").read_text()):
        options = [f"--gpu-architecture={kernel['arch']}"] if kernel["arch"] else []
        source = (sources / kernel["file"]).read_text()
        ptx, log = nvrtc(lib, source, kernel["file"], options)
        arch = kernel["arch"] or "nvrtc's default"
        lines.append(f"\n{kernel['file']} ({arch}):")
        if ptx is None:
            failed += 1
            lines.append(f"  nvrtc FAILED: {log}")
            continue
        missing = [f for f in kernel["functions"] if not re.search(rf"\.entry {f}\b", ptx)]
        if missing:
            failed += 1
            lines.append(f"  FAILED: the PTX defines no {', '.join(missing)}")
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "kernel.ptx"
            path.write_text(ptx)
            ptxas = subprocess.run(
                [str(cuda / "bin" / "ptxas"), f"-arch=sm_{cap}", "-v", str(path),
                 "-o", str(pathlib.Path(tmp) / "kernel.cubin")],
                capture_output=True, text=True,
            )
        said = [l.split("ptxas info    : ", 1)[-1].strip() for l in (ptxas.stdout + ptxas.stderr).splitlines()]
        said = [l for l in said if l and not l.startswith("Compile time") and l != "0 bytes gmem"]
        if ptxas.returncode != 0:
            failed += 1
            lines.append(f"  ptxas FAILED (exit {ptxas.returncode})")
        lines += [f"  {l}" for l in said]
    lines.append(f"\n{'every kernel compiled' if not failed else f'{failed} FAILED'}")
    report = "\n".join(lines) + "\n"
    pathlib.Path(out).write_text(report)
    print(report)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
