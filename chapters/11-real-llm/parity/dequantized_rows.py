"""Rows of SmolLM2's tensors dequantized by the `gguf` Python package, the reference the chapter's
dequantizer is tested against bit for bit (`tests/dequantize.rs`).

    python3 chapters/11-real-llm/parity/dequantized_rows.py   # needs: pip install gguf==0.19.0 numpy

Reads the file `cargo xtask models` fetched and writes `fixtures/dequantized_rows.json`: for each
chosen row, the float32 values as their bit patterns (unsigned 32-bit integers), so that the
comparison is exact.
"""

import json
import os
from importlib.metadata import version
from pathlib import Path

import gguf
import numpy as np
from gguf.quants import dequantize

CRATE = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
FILE = CACHE / "attention-in-rust/models/smollm2-135m-instruct/SmolLM2-135M-Instruct.Q4_1.gguf"
# (tensor, rows): the Q8_0 embedding, Q4_1 matrices of the first and last layers, an F32 norm
ROWS = [
    ("token_embd.weight", [0, 1, 2, 49151]),
    ("blk.0.attn_q.weight", [0, 575]),
    ("blk.0.attn_k.weight", [191]),
    ("blk.29.ffn_down.weight", [0, 575]),
    ("blk.0.attn_norm.weight", [0]),
]


def main():
    reader = gguf.GGUFReader(FILE)
    tensors = {t.name: t for t in reader.tensors}
    rows = []
    for name, wanted in ROWS:
        t = tensors[name]
        values = dequantize(t.data, t.tensor_type).astype(np.float32)
        values = values.reshape(-1, int(t.shape[0]))  # GGUF lists the row length first
        for r in wanted:
            rows.append({"tensor": name, "row": r, "type": t.tensor_type.name,
                         "bits": values[r].view(np.uint32).tolist()})
    out = {"gguf_package": version("gguf"),
           "file": FILE.name, "rows": rows}
    (CRATE / "fixtures" / "dequantized_rows.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote fixtures/dequantized_rows.json: {len(rows)} rows")


if __name__ == "__main__":
    main()
