//! The decode path on SmolLM2's file: against Hugging Face's `LlamaForCausalLM`
//! (`fixtures/hf_parity.json`) in `f32` and on the quantized blocks, and StreamingLLM's three
//! caches over 2,048 tokens.

use ch11_real_llm::decode::{Decoder, Keep, Policy, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::streaming::{self, CACHE_SLOTS};
use ch11_real_llm::tokenizer::Tokenizer;

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
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/hf_parity.json")).unwrap();
    let file = file();
    let ids_of = |v: &serde_json::Value| -> Vec<usize> {
        v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
    };
    let mut worst = [0f64; 2];
    for (w, weights) in [Weights::Dequantized, Weights::Quantized].into_iter().enumerate() {
        let model = Decoder::from_gguf(&file, weights).unwrap();
        for p in fixture["prompts"].as_array().unwrap() {
            let ids = ids_of(&p["ids"]);
            let mut cache = model.new_cache(Policy::Full { capacity: ids.len() });
            let last = model.forward(&ids, &mut cache, Keep::Last);
            let every_97th = p["every_97th"].as_array().unwrap();
            for (i, want) in every_97th.iter().enumerate() {
                worst[w] = worst[w].max((f64::from(last[i * 97]) - want.as_f64().unwrap()).abs());
            }
            for pair in p["top20"].as_array().unwrap() {
                let (id, want) = (pair[0].as_u64().unwrap() as usize, pair[1].as_f64().unwrap());
                worst[w] = worst[w].max((f64::from(last[id]) - want).abs());
            }
            assert_eq!(greedy(&model, &ids), ids_of(&p["greedy"]), "{weights:?}, {}", p["prompt"]);
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
