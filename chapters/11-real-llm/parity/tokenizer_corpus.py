"""Token ids of a corpus by three tokenizers that read SmolLM2's vocabulary, the references the
chapter's tokenizer is tested against, token for token (`tests/tokenizer.rs`):

- `llama_cpp`: llama.cpp's own tokenizer (llama-cpp-python), on the GGUF file; it reads the
  file's `tokenizer.ggml.pre = "smollm"` and splits every digit off before GPT-2's pattern;
- `smollm2_pre_tokenizer`: Hugging Face `tokenizers` with the vocabulary and merges read from the
  file and SmolLM2's published pre-tokenizer (`Digits(individual_digits=True)`, then
  `ByteLevel(add_prefix_space=False)`), as its `tokenizer.json` has it;
- `transformers_gguf`: `transformers`' tokenizer rebuilt from the GGUF file, whose pre-tokenizer is
  plain `ByteLevel` (GPT-2's pattern alone): not SmolLM2's, kept to show where it differs.

    python3 chapters/11-real-llm/parity/tokenizer_corpus.py

Needs the model file (`cargo xtask models`) and the venvs that `compare/compare_speed.py` makes
under ~/.cache/attention-in-rust/ (torch-venv with transformers 5.24.0 and gguf; llama-cpp-venv with
llama-cpp-python 0.3.36). Writes `fixtures/tokenizer_corpus.json`: each text with each reference's
ids and the versions.
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CRATE = HERE.parent
sys.path.insert(0, str(CRATE / "compare"))
from compare_speed import MODEL, python_of  # noqa: E402

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
    # whitespace runs before digits: where SmolLM2's pre-tokenizer and GPT-2's pattern part
    "x  1",
    "Intro.\n\n1. First\n2. Second\n3. Third",
    "Steps:\n  1. open\n  2. read\n    2.1 the header\n    2.2 the tensors",
    "col\t1\t\t22\t\t\t333",
    "line one\r\n1 line two\r\n\r\n2 line three",
    "total:   42 items,    7 left",
    "x = [1,  2,   3,    4]",
    "Price\n\n\n$ 100\n\n\n€ 200",
    "    4 spaces then a number",
    "a ½ cup, Ⅻ o'clock, ٣ in Arabic-Indic, ² squared",
    "2024-01-01  12:30:45  UTC",
    "|   1 |   10 |  100 |\n|---:|---:|---:|",
    "version 2.0\n\n\n\n3.0 next",
    "trailing digits 9   ",
]


def reference(python, script):
    """Each text's ids by one reference, run in its own venv."""
    out = subprocess.run([python, "-c", script, str(MODEL)], input=json.dumps(CORPUS), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


LLAMA_CPP = """
import json, sys
from importlib.metadata import version
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
ids = [llm.tokenize(t.encode(), add_bos=False, special=True) for t in json.load(sys.stdin)]
print(json.dumps({"version": version("llama-cpp-python"), "ids": ids}))
"""

TRANSFORMERS = """
import json, sys
from importlib.metadata import version
from pathlib import Path
from tokenizers import pre_tokenizers
from transformers import AutoTokenizer
path = Path(sys.argv[1])
texts = json.load(sys.stdin)
tok = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
gguf = [tok(t, add_special_tokens=False).input_ids for t in texts]
described = json.loads(tok.backend_tokenizer.to_str())["pre_tokenizer"]
# the same vocabulary and merges with SmolLM2's own pre-tokenizer, as its tokenizer.json has it
tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
    pre_tokenizers.Digits(individual_digits=True),
    pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True),
])
smollm2 = [tok(t, add_special_tokens=False).input_ids for t in texts]
print(json.dumps({"transformers": version("transformers"), "tokenizers": version("tokenizers"),
                  "gguf_pre_tokenizer": described, "transformers_gguf": gguf,
                  "smollm2_pre_tokenizer": smollm2}))
"""


def main():
    if not MODEL.exists():
        sys.exit(f"{MODEL} is missing: run `cargo xtask models`")
    llama = reference(python_of("llama-cpp-venv"), LLAMA_CPP)
    hf = reference(python_of("torch-venv"), TRANSFORMERS)
    texts = [
        {"text": t, "llama_cpp": llama["ids"][i], "smollm2_pre_tokenizer": hf["smollm2_pre_tokenizer"][i],
         "transformers_gguf": hf["transformers_gguf"][i]}
        for i, t in enumerate(CORPUS)
    ]
    out = {
        "versions": {"llama-cpp-python": llama["version"], "transformers": hf["transformers"],
                     "tokenizers": hf["tokenizers"]},
        "transformers_gguf_pre_tokenizer": hf["gguf_pre_tokenizer"],
        "texts": texts,
    }
    (CRATE / "fixtures" / "tokenizer_corpus.json").write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n")
    differ = sum(t["transformers_gguf"] != t["llama_cpp"] for t in texts)
    agree = sum(t["smollm2_pre_tokenizer"] == t["llama_cpp"] for t in texts)
    print(f"wrote fixtures/tokenizer_corpus.json: {len(texts)} texts; llama.cpp and SmolLM2's "
          f"pre-tokenizer agree on {agree}; transformers' GGUF tokenizer differs on {differ}")


if __name__ == "__main__":
    main()
