"""Hugging Face's LlamaForCausalLM, loaded in float32 from SmolLM2's GGUF file: the reference the
chapter's model is tested against (`tests/parity.rs`).

    python3 chapters/11-real-llm/parity/hf_parity.py   # needs: pip install torch transformers gguf accelerate

Writes `fixtures/hf_parity.json`: for each prompt, its ids and 64 greedily generated tokens with
the smallest gap between the first and second logit along the way (`<|im_end|>` is never chosen:
`min_new_tokens` forbids the end-of-sequence token for all 64); and
`fixtures/hf_parity_logits.safetensors`: each prompt's last-position logits, the whole vocabulary
(49,152 float32 numbers a prompt, tensors `last_logits.0` to `last_logits.5`).
"""

import json
import os
from importlib.metadata import version
from pathlib import Path

import torch
from safetensors.torch import save_file
from transformers import AutoModelForCausalLM, AutoTokenizer

CRATE = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
FOLDER = CACHE / "attention-in-rust/models/smollm2-135m-instruct"
FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CHAT = ["What is the capital of France?", "Explain attention in one sentence.", "List three prime numbers."]
RAW = ["The capital of France is", "def fibonacci(n):", "Once upon a time"]
NEW_TOKENS = 64


def main():
    torch.manual_seed(0)
    tok = AutoTokenizer.from_pretrained(FOLDER, gguf_file=FILE)
    model = AutoModelForCausalLM.from_pretrained(FOLDER, gguf_file=FILE, dtype=torch.float32).eval()
    prompts = [tok.apply_chat_template([{"role": "user", "content": q}], tokenize=False,
                                       add_generation_prompt=True) for q in CHAT] + RAW
    out, logits = [], {}
    for n, p in enumerate(prompts):
        ids = tok(p, add_special_tokens=False).input_ids
        x = torch.tensor([ids])
        with torch.no_grad():
            last = model(x).logits[0, -1]
            gen = model.generate(x, max_new_tokens=NEW_TOKENS, do_sample=False, output_scores=True,
                                 return_dict_in_generate=True, min_new_tokens=NEW_TOKENS)
        new = gen.sequences[0, len(ids):].tolist()
        gaps = [float(s[0].topk(2).values[0] - s[0].topk(2).values[1]) for s in gen.scores]
        logits[f"last_logits.{n}"] = last.contiguous()
        out.append({"prompt": p, "ids": ids, "greedy": new, "smallest_gap": min(gaps)})
        print(repr(p[-40:]), "->", repr(tok.decode(new)[:60]), f"gap {min(gaps):.4f}")
    result = {"transformers": version("transformers"), "torch": version("torch"), "prompts": out}
    (CRATE / "fixtures" / "hf_parity.json").write_text(json.dumps(result) + "\n")
    save_file(logits, CRATE / "fixtures" / "hf_parity_logits.safetensors")


if __name__ == "__main__":
    main()
