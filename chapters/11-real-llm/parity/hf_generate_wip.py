import torch
from pathlib import Path
from transformers import AutoModelForCausalLM, AutoTokenizer
d = Path.home()/".cache/attention-in-rust/models/smollm2-135m-instruct"; f="SmolLM2-135M-Instruct.Q4_1.gguf"
torch.set_num_threads(2)
tok = AutoTokenizer.from_pretrained(d, gguf_file=f); model = AutoModelForCausalLM.from_pretrained(d, gguf_file=f, dtype=torch.float32)
for q in ["Write a haiku about attention in transformers.", "What is the capital of France?"]:
    msgs=[{"role":"user","content":q}]
    p = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
    ids = tok(p, return_tensors="pt").input_ids
    print(repr(p[:120]), ids.shape)
    out = model.generate(ids, max_new_tokens=40, do_sample=False)
    print(repr(tok.decode(out[0][ids.shape[1]:])))
