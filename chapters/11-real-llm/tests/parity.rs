//! SmolLM2 on chapter 10's model against Hugging Face's `LlamaForCausalLM` loaded in float32 from
//! the same file (`fixtures/hf_parity.json`, written by `parity/hf_parity.py`): the same prompt
//! ids, the same last-position logits within a measured tolerance, and the same 64 greedy tokens
//! with and without the cache.

use ch10_language_models::llama::lm::LanguageModel;
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::model_file;
use ch11_real_llm::smollm2::{self, SmolLm2};
use ch11_real_llm::tokenizer::Tokenizer;
use support::Dev;

use crate::hf_fixture;

/// 64 greedy tokens after `prompt`, `<|im_end|>` (id 2) never chosen, as Hugging Face's
/// `min_new_tokens` does; with the cache, or the whole sequence at every step.
fn greedy(model: &SmolLm2<Dev>, prompt: &[usize], cached: bool) -> Vec<usize> {
    let mut cache = model.new_cache();
    let (mut tokens, mut fresh) = (prompt.to_vec(), prompt.len());
    for _ in 0..64 {
        let logits = if cached {
            model.logits_cached(&tokens[tokens.len() - fresh..], &mut cache)
        } else {
            model.logits(&tokens)
        };
        let mut last = logits[logits.len() - model.vocab()..].to_vec();
        last[2] = f32::NEG_INFINITY;
        tokens.push(support::argmax(&last));
        fresh = 1;
    }
    tokens[prompt.len()..].to_vec()
}

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn logits_and_greedy_tokens_equal_hugging_faces() {
    let file = Gguf::parse(model_file::read().unwrap()).unwrap();
    let tok = Tokenizer::from_gguf(&file).unwrap();
    let model = smollm2::from_gguf(&file, &Dev::default()).unwrap();
    let mut worst = 0f64;
    let prompts = hf_fixture::prompts();
    for p in &prompts {
        let ids = &p.ids;
        let ours: Vec<usize> = tok.encode(&p.text).iter().map(|&x| x as usize).collect();
        assert_eq!(&ours, ids, "the prompt's ids");
        let logits = model.logits(ids);
        worst = worst.max(p.worst_logit_difference(&logits[logits.len() - model.vocab()..]));
        let want = &p.greedy;
        assert_eq!(&greedy(&model, ids, true), want, "{:?} with the cache", p.text);
        assert_eq!(&greedy(&model, ids, false), want, "{:?} without the cache", p.text);
    }
    assert_eq!(prompts.len(), 6);
    println!("largest |logit difference| over {} prompts: {worst:.2e}", prompts.len());
    assert!(worst < 1e-3, "{worst}");
}
