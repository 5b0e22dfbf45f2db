//! The layout lesson on a real model: the file's query and key rows with the interleaved
//! rotation give the scores Hugging Face's un-permuted rows give with the half-split rotation;
//! the file's rows with the half-split rotation break the model.

use ch10_language_models::char_model::chars::TEXT;
use ch10_language_models::llama::lm::LanguageModel;
use ch11_real_llm::perplexity::perplexity;
use ch11_real_llm::smollm2::{from_gguf_paired, Pairing};
use support::Dev;

use crate::real_model;

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn the_wrong_pairing_breaks_the_model() {
    let (file, tok) = (real_model::file(), real_model::tokenizer());
    // 256 tokens of chapter 10's text (Bierce's dictionary, which the model was not tuned on)
    let ids: Vec<usize> = tok.encode(&TEXT[..4000]).iter().take(256).map(|&i| i as usize).collect();
    assert_eq!(ids.len(), 256);
    let dev = Dev::default();
    let model = |p| from_gguf_paired(file, &dev, p).unwrap();
    // the model as stored is the one every test shares; the other two pairings are built here
    let (stored, unpermuted, wrong) =
        (real_model::model(), model(Pairing::Unpermuted), model(Pairing::Wrong));
    let a = stored.logits(&ids[..64]);
    let b = unpermuted.logits(&ids[..64]);
    let diff = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    let ppl = [stored, &unpermuted, &wrong].map(|m| perplexity(m, &ids));
    println!("largest logit difference, stored vs un-permuted: {diff:.2e}");
    println!(
        "perplexity: as stored {:.2}, un-permuted {:.2}, wrong pairing {:.2}",
        ppl[0], ppl[1], ppl[2]
    );
    assert!(diff < 2e-4, "{diff}");
    assert!((ppl[0] - ppl[1]).abs() < 1e-2 * ppl[0]);
    let shown = |p: f64| (p * 100.0).round() / 100.0;
    assert_eq!((shown(ppl[0]), shown(ppl[2])), (28.95, 292.48), "{ppl:?}");
    // perplexity per token against chapter 10's nats per character: the 255 tokens predicted
    // hold this many characters of the text
    let predicted: Vec<u32> = ids[1..].iter().map(|&i| i as u32).collect();
    let chars = tok.decode(&predicted).chars().count();
    let nats_per_token = ppl[0].ln();
    let nats_per_char = nats_per_token * 255.0 / chars as f64;
    println!(
        "{nats_per_token:.3} nats per token, {chars} characters, {nats_per_char:.3} per character"
    );
    assert_eq!(shown(nats_per_token), 3.37);
    assert_eq!((chars, shown(chars as f64 / 255.0)), (973, 3.82));
    assert_eq!(shown(nats_per_char), 0.88);
}
