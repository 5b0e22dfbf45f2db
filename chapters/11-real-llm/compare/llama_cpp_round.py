"""One timed generation by llama.cpp (llama-cpp-python) on the GGUF file as stored (Q4_1 and
Q8_0): the prompt ids in argv[2] at once, then greedy tokens one at a time. argv[5] is the
configuration: `defaults` (as a user gets it) or `no-extra-buffer-types`. Prints JSON. Run by
compare_speed.py in its own venv, which tries the defaults first."""

import json
import sys
import time
from importlib.metadata import version

import numpy as np

from llama_cpp_configured import configured

path, ids, new, threads = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
configuration = sys.argv[5] if len(sys.argv) > 5 else "defaults"
Llama, low = configured(configuration)

llm = Llama(model_path=path, n_threads=threads, n_threads_batch=threads, n_ctx=256,
            n_batch=len(ids), verbose=False)


def last_logits():
    """The last evaluated token's logits, as llama.cpp holds them (copied out)."""
    return np.ctypeslib.as_array(low.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(llm.n_vocab(),)).copy()


start = time.perf_counter()
llm.eval(ids)
tokens = [int(last_logits().argmax())]
prefill = time.perf_counter() - start
start = time.perf_counter()
while len(tokens) < new:
    llm.eval([tokens[-1]])
    tokens.append(int(last_logits().argmax()))
decode = time.perf_counter() - start
print(json.dumps({
    "prefill_tokens_per_s": len(ids) / prefill,
    "decode_tokens_per_s": (new - 1) / decode,
    "tokens": tokens,
    "versions": {"llama-cpp-python": version("llama-cpp-python")},
    "threads": threads,
    "configuration": configuration,
}))
