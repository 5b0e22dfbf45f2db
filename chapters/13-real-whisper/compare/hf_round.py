"""One round of Hugging Face transformers (PyTorch in eager mode, float32, attention through
transformers' default "sdpa", PyTorch's `scaled_dot_product_attention`) transcribing the chapter's
five clips: the features (`WhisperFeatureExtractor`) and `generate` (greedy, no timestamps), on
`threads` threads, after one untimed transcription. The weights are `model.bin`'s, loaded as
`fixtures/make_hf_fixture.py` loads them. Prints one JSON line.

    python hf_round.py THREADS
"""

import json
import platform
import sys
import time
from pathlib import Path

import torch
import transformers

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "fixtures"))
import make_hf_fixture as fixture  # noqa: E402


def main():
    threads = int(sys.argv[1])
    torch.set_num_threads(threads)
    model = fixture.build_model()
    extractor = transformers.WhisperFeatureExtractor()
    suppress = json.loads((fixture.MODEL / "config.json").read_text())["suppress_ids"]
    clips = [fixture.samples(p) for p in fixture.paths()]

    def transcribe(audio):
        features = extractor(audio, sampling_rate=16000, return_tensors="pt").input_features
        with torch.no_grad():
            out = model.generate(
                features, decoder_input_ids=torch.tensor([[50257, 50362]]), max_new_tokens=440,
                suppress_tokens=suppress, do_sample=False, num_beams=1, return_timestamps=False,
            )
        return [t for t in out[0].tolist() if t < 50256]

    transcribe(clips[0])
    start = time.perf_counter()
    tokens = [transcribe(audio) for audio in clips]
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": "transformers",
        "seconds": seconds,
        "tokens": tokens,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                     "python": platform.python_version()},
    }))


if __name__ == "__main__":
    main()
