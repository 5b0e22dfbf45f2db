"""One round of sentence-transformers on PyTorch: the texts given as a JSON file, embedded in
batches of 32 (sentence-transformers sorts them by length itself) on `threads` threads, after one
untimed batch. Prints one JSON line.

    python st_round.py MODEL_FOLDER TEXTS_JSON THREADS
"""

import json
import os
import platform
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import sentence_transformers  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402


def main():
    folder, texts_path, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    torch.set_num_threads(threads)
    texts = json.load(open(texts_path))
    model = SentenceTransformer(folder, device="cpu")
    model.encode(texts[:32], batch_size=32)
    start = time.perf_counter()
    model.encode(texts, batch_size=32)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": "sentence-transformers",
        "sentences": len(texts),
        "seconds": seconds,
        "sentences_per_s": len(texts) / seconds,
        "versions": {"sentence_transformers": sentence_transformers.__version__,
                     "torch": torch.__version__, "transformers": transformers.__version__,
                     "python": platform.python_version()},
    }))


if __name__ == "__main__":
    main()
