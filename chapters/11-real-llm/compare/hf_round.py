"""One timed generation by Hugging Face transformers (PyTorch eager, float32, the GGUF file's
weights dequantized): the prompt ids in argv[1] at once, then greedy tokens one at a time against
the cache. Prints JSON. Run by compare_speed.py in the torch venv."""

import json
import sys
import time
from importlib.metadata import version
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM

path, ids, new, threads = Path(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.set_num_threads(threads)
model = AutoModelForCausalLM.from_pretrained(
    path.parent, gguf_file=path.name, dtype=torch.float32
).eval()
with torch.inference_mode():
    start = time.perf_counter()
    out = model(torch.tensor([ids]), use_cache=True)
    tokens = [int(out.logits[0, -1].argmax())]
    prefill = time.perf_counter() - start
    past = out.past_key_values
    start = time.perf_counter()
    while len(tokens) < new:
        out = model(torch.tensor([[tokens[-1]]]), past_key_values=past, use_cache=True)
        past = out.past_key_values
        tokens.append(int(out.logits[0, -1].argmax()))
    decode = time.perf_counter() - start
print(json.dumps({
    "prefill_tokens_per_s": len(ids) / prefill,
    "decode_tokens_per_s": (new - 1) / decode,
    "tokens": tokens,
    "versions": {p: version(p) for p in ["torch", "transformers"]},
    "threads": torch.get_num_threads(),
}))
