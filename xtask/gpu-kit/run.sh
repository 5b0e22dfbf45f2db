#!/usr/bin/env bash
# Runs the GPU kit's test binaries: `bash run.sh [--only NAME]... [-- TEST ARGS]`.
# Needs bash and python3 (the python3 that holds PyTorch: its CUDA 13 libraries are used).
# See runner.py for what it writes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec python3 "$here/runner.py" "$@"
