import json, os, time, torch
from pathlib import Path
from transformers import AutoModelForCausalLM, AutoTokenizer
d = Path.home()/".cache/attention-in-rust/models/smollm2-135m-instruct"
f = "SmolLM2-135M-Instruct.Q4_1.gguf"
torch.set_num_threads(2)
tok = AutoTokenizer.from_pretrained(d, gguf_file=f)
model = AutoModelForCausalLM.from_pretrained(d, gguf_file=f, torch_dtype=torch.float32)
model.eval()
prompts = ["The capital of France is", "def fibonacci(n):"]
out = []
for p in prompts:
    ids = tok(p, return_tensors="pt").input_ids
    with torch.no_grad():
        logits = model(ids).logits[0]
    last = logits[-1]
    top = torch.topk(last, 5)
    out.append({"prompt": p, "ids": ids[0].tolist(), "last_logits_top": [[int(i), float(v)] for v, i in zip(top.values, top.indices)], "last_logits_first8": last[:8].tolist()})
    print(p, ids[0].tolist(), [(tok.decode([int(i)]), round(float(v),4)) for v, i in zip(top.values, top.indices)])
json.dump(out, open("/tmp/hf/hf.json", "w"))
print(model.config.rope_theta if hasattr(model.config,'rope_theta') else model.config.rope_parameters, model.config.rms_norm_eps, model.config.tie_word_embeddings)
