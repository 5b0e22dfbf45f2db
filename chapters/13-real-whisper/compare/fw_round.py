"""One round of faster-whisper (CTranslate2) transcribing the chapter's five clips from the same
`model.bin`, greedy and without timestamps, with `compute_type` float32 or int8, on `threads`
threads, after one untimed transcription. Prints one JSON line.

    python fw_round.py MODEL_FOLDER COMPUTE_TYPE THREADS
"""

import json
import platform
import sys
import time
from pathlib import Path

import ctranslate2
import faster_whisper
from faster_whisper import WhisperModel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures"))
from clips import paths, samples  # noqa: E402




def main():
    folder, compute_type, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    model = WhisperModel(folder, device="cpu", compute_type=compute_type, cpu_threads=threads)
    clips = [samples(p) for p in paths()]

    def transcribe(audio):
        segments, _ = model.transcribe(
            audio, language="en", beam_size=1, best_of=1, temperature=0.0,
            condition_on_previous_text=False, vad_filter=False, without_timestamps=True,
        )
        return [t for s in segments for t in s.tokens]

    transcribe(clips[0])
    start = time.perf_counter()
    tokens = [transcribe(audio) for audio in clips]
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": f"faster-whisper {compute_type}",
        "seconds": seconds,
        "tokens": tokens,
        "versions": {"faster_whisper": faster_whisper.__version__,
                     "ctranslate2": ctranslate2.__version__, "python": platform.python_version()},
    }))


if __name__ == "__main__":
    main()
