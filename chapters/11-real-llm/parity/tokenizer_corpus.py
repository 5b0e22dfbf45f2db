"""Token ids of a corpus by Hugging Face's tokenizer, loaded from SmolLM2's GGUF file: the
reference the chapter's tokenizer is tested against, token for token (`tests/tokenizer.rs`).

    python3 chapters/11-real-llm/parity/tokenizer_corpus.py   # needs: pip install transformers gguf torch

Writes `fixtures/tokenizer_corpus.json`: each text with its ids.
"""

import json
import os
from importlib.metadata import version
from pathlib import Path

from transformers import AutoTokenizer

CRATE = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
FOLDER = CACHE / "attention-in-rust/models/smollm2-135m-instruct"
CORPUS = [
    "",
    "The capital of France is",
    "What is the capital of France?",
    "Attention is all you need.",
    "The quick brown fox jumps over the lazy dog, doesn't it? I'd say we'll see; they're sure.",
    "def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n",
    "fn main() { println!(\"{}\", 1 + 2); }",
    "Numbers: 0, 7, 42, 1234567890, 3.14159, -2.5e-3, 1,000,000 and 2026-11-25.",
    "Café, naïve, façade, Ångström, Straße, Ελληνικά, русский, 日本語のテキスト, 한국어, עברית, العربية.",
    "Emoji: 😀 👍🏽 🇫🇷 👩‍👩‍👧 ❤️ and a lone variation selector \ufe0f.",
    "  two  spaces,   three,\ttab,\n\nblank line,\r\nCRLF,  \n  trailing   ",
    "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n",
    "<|endoftext|><|im_start|><|im_end|><repo_name>text<file_sep>",
    "A sentence with <|im_end in the middle, not a special token.",
    "URLs: https://example.com/path?q=1&r=2#frag, e-mail: someone@example.org",
    "Punctuation!!! ... ??? --- *** ((( ))) \"quotes\" 'single' `back`",
    "ALL CAPS AND MiXeD cAsE, camelCase and snake_case_names.",
    "\n\n\n",
    "     ",
    "a" * 300,
]


def main():
    tok = AutoTokenizer.from_pretrained(FOLDER, gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf")
    texts = [{"text": t, "ids": tok(t, add_special_tokens=False).input_ids} for t in CORPUS]
    out = {"transformers": version("transformers"), "texts": texts}
    (CRATE / "fixtures" / "tokenizer_corpus.json").write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n")
    print(f"wrote fixtures/tokenizer_corpus.json: {len(texts)} texts, {sum(len(t['ids']) for t in texts)} tokens")


if __name__ == "__main__":
    main()
