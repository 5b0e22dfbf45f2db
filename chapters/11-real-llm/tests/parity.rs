//! SmolLM2 on chapter 10's model against Hugging Face's `LlamaForCausalLM` loaded in float32 from
//! the same file (`fixtures/hf_parity.json`, written by `parity/hf_parity.py`): the same prompt
//! ids, the same last-position logits within a measured tolerance, and the same 64 greedy tokens
//! on all six prompts with the cache, step by step, and without it, in one pass over the prompt
//! and the tokens (the step-by-step run without the cache, 64 passes a prompt, on three prompts
//! in a full run, `full_run::`, left to `cargo test --release`).

use ch10_language_models::llama::lm::LanguageModel;

use crate::{hf_fixture, real_model};

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn logits_and_greedy_tokens_equal_hugging_faces() {
    let (tok, model) = (real_model::tokenizer(), real_model::model());
    let (mut worst, mut gaps) = (0f64, [f32::INFINITY; 2]);
    let prompts = hf_fixture::prompts();
    for p in &prompts {
        let ids = &p.ids;
        let ours: Vec<usize> = tok.encode(&p.text).iter().map(|&x| x as usize).collect();
        assert_eq!(&ours, ids, "the prompt's ids");
        let logits = model.logits(ids);
        worst = worst.max(p.worst_logit_difference(&logits[logits.len() - model.vocab()..]));
        let want = &p.greedy;
        let (cached, gap) = hf_fixture::greedy(model, ids, true);
        assert_eq!(&cached, want, "{:?}, with the cache", p.text);
        let (one_pass, gap_without) = hf_fixture::greedy_in_one_pass(model, ids, want);
        assert_eq!(&one_pass, want, "{:?}, without the cache", p.text);
        let head = &p.text[..p.text.len().min(24)];
        println!("{head:?}: smallest gap {gap:.4} with the cache, {gap_without:.4} without");
        gaps = [gaps[0].min(gap), gaps[1].min(gap_without)];
    }
    println!("smallest top-1/top-2 gap: with the cache {:.4}, without {:.4}", gaps[0], gaps[1]);
    // the closest call on either path: the same step, decided the same way
    assert!(gaps.iter().all(|&g| (g - 0.0028).abs() < 0.0005), "{gaps:?}");
    assert_eq!(prompts.len(), 6);
    println!("largest |logit difference| over {} prompts: {worst:.2e}", prompts.len());
    assert!(worst < 1e-4, "{worst}");
}

/// Three prompts without the cache step by step, as a user's loop would run it: 64 passes of the
/// whole sequence each, minutes in a debug build (`cargo test --release -p ch11-real-llm --test
/// tests -- --ignored full_run::`). The chat prompt with the closest call (a top-1/top-2 gap of
/// 0.0028 in Hugging Face's run too) and two raw ones.
mod full_run {
    use super::*;

    #[test]
    #[ignore = "needs SmolLM2's GGUF file (cargo xtask models); a full run: use --release"]
    fn greedy_tokens_without_the_cache_step_by_step() {
        let model = real_model::model();
        let prompts = hf_fixture::prompts();
        assert!(prompts[2].text.starts_with("<|im_start|>"), "a chat prompt");
        for p in [&prompts[2], &prompts[3], &prompts[4]] {
            let (tokens, gap) = hf_fixture::greedy(model, &p.ids, false);
            assert_eq!(tokens, p.greedy, "{:?}, without the cache", p.text);
            println!("{:?}, without the cache: smallest gap {gap:.4}", p.text);
        }
    }
}
