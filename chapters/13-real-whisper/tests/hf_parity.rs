//! Whisper tiny.en on the book's code against Hugging Face's `WhisperForConditionalGeneration` on
//! the same weights (`fixtures/hf_whisper.safetensors`, made by `fixtures/make_hf_fixture.py`,
//! which cuts CTranslate2's fused matrices apart and loads them into `transformers`): the encoder's
//! output, the logits after the whole transcript, and the tokens `generate` writes.

use ::safetensors::SafeTensors;
use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::mel::Padding;

use crate::real_model::{transcriber, transcript};
use support::max_abs_diff;

/// How far the encoder's output may be from Hugging Face's. Both compute in `f32` from the same
/// `f16` weights (each turned into `f32` exactly), so only the order of the sums differs, and
/// with it the rounding: the largest difference over the five clips was 7.5e-5 on a 2-core AMD
/// EPYC with AVX-512, and another instruction set sums in another order, so the tolerance
/// leaves a factor of about 3.
const ENCODER_TOLERANCE: f32 = 2e-4;
/// How far the logits may be (the largest difference measured was 1.4e-4, after eight blocks
/// and the 384-wide product with the token table).
const LOGITS_TOLERANCE: f32 = 5e-4;

fn fixture() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/hf_whisper.safetensors")).unwrap()
}

fn floats(file: &SafeTensors<'_>, name: &str) -> Vec<f32> {
    let t = file.tensor(name).unwrap();
    t.data().chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn encoder_logits_and_tokens_equal_hugging_faces() {
    let bytes = fixture();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    let t = transcriber();
    let (mut encoder, mut logits) = (0.0f32, 0.0f32);
    for (i, clip) in CLIPS.iter().enumerate() {
        // Hugging Face's feature extractor pads the samples with silence
        let transcript = transcript(i, Padding::Silence);
        let generated: Vec<u32> =
            (file.tensor(&format!("generated.{}", clip.file)).unwrap().data())
                .chunks_exact(4)
                .map(|b| i32::from_le_bytes(b.try_into().unwrap()) as u32)
                .collect();
        assert_eq!(transcript.tokens, generated, "{}", clip.file);
        // the encoder's output on `log_mel`, which pads with silence
        let audio = &transcript.audio;
        let audio_values = audio.as_vec();
        let every_25th: Vec<f32> = (0..1500)
            .step_by(25)
            .flat_map(|p| audio_values[p * 384..(p + 1) * 384].to_vec())
            .collect();
        let hf = floats(&file, &format!("encoder.{}", clip.file));
        // the fixture keeps every 25th of the 1,500 positions: 60 of them
        assert_eq!((every_25th.len(), hf.len()), (60 * 384, 60 * 384));
        encoder = encoder.max(max_abs_diff(&every_25th, &hf));
        let ids: Vec<u32> = [50_257, 50_362].into_iter().chain(transcript.tokens.clone()).collect();
        let (all, _) = t.model.decode_all(&ids, audio);
        let all = all.as_vec();
        let last = &all[(ids.len() - 1) * 51_864..];
        logits = logits.max(max_abs_diff(last, &floats(&file, &format!("logits.{}", clip.file))));
    }
    println!("largest differences: encoder {encoder:e}, logits {logits:e}");
    assert!(encoder <= ENCODER_TOLERANCE, "{encoder}");
    assert!(logits <= LOGITS_TOLERANCE, "{logits}");
}
