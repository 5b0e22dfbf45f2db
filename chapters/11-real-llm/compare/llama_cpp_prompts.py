"""One round of llama.cpp (llama-cpp-python) prefilling longer prompts on the GGUF file as stored:
each prompt of the JSON list in argv[2] (lists of ids) run at once into a fresh context, timed,
with the greedy token it predicts next. argv[4] is the configuration, as in llama_cpp_round.py,
whose first round decided it. Prints JSON. Run by compare_speed.py in its own venv."""

import json
import sys
import time
from importlib.metadata import version

import numpy as np

from llama_cpp_configured import configured

path, prompts, threads = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
configuration = sys.argv[4] if len(sys.argv) > 4 else "defaults"
Llama, low = configured(configuration)

results = []
for ids in prompts:
    # a context of its own per prompt, its batch the whole prompt (llama.cpp splits it into
    # micro-batches of its default 512 tokens)
    llm = Llama(model_path=path, n_threads=threads, n_threads_batch=threads, n_ctx=len(ids) + 64,
                n_batch=len(ids), verbose=False)
    start = time.perf_counter()
    llm.eval(ids)
    elapsed = time.perf_counter() - start
    logits = np.ctypeslib.as_array(low.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(llm.n_vocab(),))
    results.append({"tokens": len(ids), "tokens_per_s": len(ids) / elapsed, "next": int(logits.argmax())})
    del llm
print(json.dumps({
    "prompts": results,
    "versions": {"llama-cpp-python": version("llama-cpp-python")},
    "configuration": configuration,
}))
