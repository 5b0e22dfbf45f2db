//! The decode path on SmolLM2's file: against Hugging Face's `LlamaForCausalLM`
//! (`fixtures/hf_parity.json`) in `f32` and on the quantized blocks, and StreamingLLM's three
//! caches over 2,048 tokens.

use ch11_real_llm::decode::{Decoder, Keep, Policy, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::streaming::{self, CACHE_SLOTS};
use ch11_real_llm::tokenizer::Tokenizer;

use crate::hf_fixture;

fn file() -> Gguf {
    Gguf::parse(model_file::read().unwrap()).unwrap()
}

/// 64 greedy tokens, `<|im_end|>` (id 2) never chosen, as the parity fixture's.
fn greedy(model: &Decoder, prompt: &[usize]) -> Vec<usize> {
    let mut cache = model.new_cache(Policy::Full { capacity: prompt.len() + 64 });
    let mut tokens = prompt.to_vec();
    let mut fresh = prompt.len();
    while tokens.len() < prompt.len() + 64 {
        let mut last = model.forward(&tokens[tokens.len() - fresh..], &mut cache, Keep::Last);
        last[2] = f32::NEG_INFINITY;
        tokens.push(support::argmax(&last));
        fresh = 1;
    }
    tokens[prompt.len()..].to_vec()
}

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn both_decode_paths_give_hugging_faces_logits_and_tokens() {
    let file = file();
    let mut worst = [0f64; 2];
    for (w, weights) in [Weights::Dequantized, Weights::Quantized].into_iter().enumerate() {
        let model = Decoder::from_gguf(&file, weights).unwrap();
        for p in hf_fixture::prompts() {
            let mut cache = model.new_cache(Policy::Full { capacity: p.ids.len() });
            let last = model.forward(&p.ids, &mut cache, Keep::Last);
            worst[w] = worst[w].max(p.worst_logit_difference(&last));
            assert_eq!(greedy(&model, &p.ids), p.greedy, "{weights:?}, {}", p.text);
        }
    }
    println!(
        "largest |logit difference| from Hugging Face: f32 {:.2e}, quantized {:.2e}",
        worst[0], worst[1]
    );
    assert!(worst[0] < 1e-4, "{worst:?}");
    assert!(worst[1] < 1e-4, "{worst:?}");
}

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn the_sinks_keep_a_small_cache_near_the_full_caches_perplexity() {
    let file = file();
    let ids = streaming::text_ids(&Tokenizer::from_gguf(&file).unwrap());
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap();
    let measured: Vec<(f64, f64)> = streaming::policies()
        .iter()
        .map(|&(_, policy)| {
            let nll = streaming::surprise(&model, &ids, policy);
            (streaming::perplexity_of(&nll), streaming::perplexity_of(&nll[CACHE_SLOTS..]))
        })
        .collect();
    println!("{measured:?}");
    let pinned = [(40.94, 43.09), (82.10, 95.45), (42.80, 45.33)];
    for ((all, after), (want_all, want_after)) in measured.iter().zip(pinned) {
        assert!((all - want_all).abs() < 0.005, "{measured:?}");
        assert!((after - want_after).abs() < 0.005, "{measured:?}");
    }
}
