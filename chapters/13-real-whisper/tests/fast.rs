//! The fast path against the book's path: the same encoder output, logits and transcripts.

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::mel::{log_mel, Padding};
use ch13_real_whisper::timing::align;

use crate::real_model::{references, transcriber, transcript};
use support::max_abs_diff;

/// On every clip: the encoder's output within 1e-3 of the book's path and the logits of every step
/// within 5e-4, and the same tokens, which are faster-whisper's, and word times. The fast path
/// sums in other orders and takes `exp` and `erf` from chapter 8's and chapter 12's polynomials
/// (relative errors near 1e-7); through two convolutions and four blocks that came to 5.8e-4 at
/// most, on outputs up to 12.8 in size (5e-5 of them), on a 2-core AMD EPYC with AVX-512. Built
/// for a GPU (`support::ON_GPU`), the book's path runs on dfdx's CUDA kernels and cuBLAS, and
/// the fast path on the GPU machine's processor: on an H100 with a 16-core Intel Xeon (AVX-512)
/// the encoders differed by 1.05e-3 and 1.13e-3 in two runs (9e-5 of the largest output), the
/// logits by 7.8e-5; there the encoder is allowed 2e-3.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_fast_path_gives_the_books_numbers() {
    let t = transcriber();
    let (mut encoder, mut logits) = (0.0f32, 0.0f32);
    for (i, (clip, reference)) in CLIPS.iter().zip(references()).enumerate() {
        let samples = clip.samples();
        let mel = log_mel(&samples).unwrap();
        // the book's encoder on `log_mel`, which pads with silence: what the silence-padded
        // transcript heard
        let audio = &transcript(i, Padding::Silence).audio;
        let fast_audio = t.fast.encode(&mel);
        encoder = encoder.max(max_abs_diff(&audio.as_vec(), &fast_audio));
        let biggest = fast_audio.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        println!("{}: largest |output| {biggest:.1}", clip.name());
        let fast = t.transcribe_fast(&samples, Padding::Zeros).unwrap();
        assert_eq!(fast.tokens, reference.tokens, "{}", clip.file);
        let ids: Vec<u32> = [50_257, 50_362].into_iter().chain(fast.tokens.clone()).collect();
        let (all, _) = t.model.decode_all(&ids, audio);
        let all = all.as_vec();
        let mut decoding = t.fast.start(&fast_audio);
        for (i, n) in [(0, 2)].into_iter().chain((2..ids.len()).map(|i| (i, 1))) {
            let step = decoding.step(&ids[i..i + n]);
            let last = i + n - 1;
            logits = logits.max(max_abs_diff(&step, &all[last * 51_864..(last + 1) * 51_864]));
        }
        assert_eq!(t.words(&fast), t.words(transcript(i, Padding::Zeros)));
    }
    println!("largest differences from the book's path: encoder {encoder:e}, logits {logits:e}");
    let encoder_tolerance = if support::ON_GPU { 2e-3 } else { 1e-3 };
    assert!(encoder <= encoder_tolerance && logits <= 5e-4, "{encoder} {logits}");
}

/// On every clip, the alignment on the fast path (the alignment heads' weights kept by
/// `step_watching` while the forced sequence is read in one step) against the book's path
/// (`decode_all`'s weights of every head): the alignment matrices within 1e-3 and the same path,
/// so the same word times; the page's Whisper times words this way.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_fast_alignment_gives_the_books_word_times() {
    let t = transcriber();
    let mut matrix = 0.0f32;
    for clip in CLIPS {
        let heard = t.transcribe_fast(&clip.samples(), Padding::Zeros).unwrap();
        let fast = t.alignment_fast(&heard);
        let (heads, rows, positions) = t.alignment_weights(&heard);
        let book =
            align(&t.tokenizer, &heard.tokens, &heads, (rows, positions), heard.speech_frames);
        assert_eq!(
            (fast.frames, fast.rows()),
            (heard.speech_frames / 2, rows - 2),
            "{}",
            clip.file
        );
        matrix = matrix.max(max_abs_diff(&fast.matrix, &book.matrix));
        assert_eq!(fast.path, book.path, "{}", clip.file);
        assert_eq!(fast.words, book.words, "{}", clip.file);
        assert_eq!(book.words, t.words(&heard), "{}", clip.file);
    }
    println!("largest difference between the alignment matrices: {matrix:e}");
    assert!(matrix <= 1e-3, "{matrix}");
}
