//! SmolLM2 on chapter 10's model against Hugging Face's `LlamaForCausalLM` loaded in float32 from
//! the same file (`fixtures/hf_parity.json`, written by `parity/hf_parity.py`): the same prompt
//! ids, the same last-position logits within a measured tolerance, and the same 64 greedy tokens
//! with the cache on all six prompts, and without it on three.

use ch10_language_models::llama::lm::LanguageModel;

use crate::{hf_fixture, real_model};

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn logits_and_greedy_tokens_equal_hugging_faces() {
    let (tok, model) = (real_model::tokenizer(), real_model::model());
    let (mut worst, mut gaps) = (0f64, [f32::INFINITY; 2]);
    let prompts = hf_fixture::prompts();
    let no_cache: Vec<&str> = [2, 3, 4].iter().map(|&i| prompts[i].text.as_str()).collect();
    for p in &prompts {
        let ids = &p.ids;
        let ours: Vec<usize> = tok.encode(&p.text).iter().map(|&x| x as usize).collect();
        assert_eq!(&ours, ids, "the prompt's ids");
        let logits = model.logits(ids);
        worst = worst.max(p.worst_logit_difference(&logits[logits.len() - model.vocab()..]));
        let want = &p.greedy;
        // without the cache the model runs the whole sequence at each of the 64 steps: three of
        // the prompts (the chat one with the closest call, two raw) show it gives the same tokens
        let paths: &[bool] =
            if no_cache.contains(&p.text.as_str()) { &[true, false] } else { &[true] };
        for (i, &cached) in paths.iter().enumerate() {
            let (tokens, gap) = hf_fixture::greedy(model, ids, cached);
            assert_eq!(&tokens, want, "{:?}, cached: {cached}", p.text);
            println!(
                "{:?}, cached: {cached}: smallest gap {gap:.4}",
                &p.text[..p.text.len().min(24)]
            );
            gaps[i] = gaps[i].min(gap);
        }
    }
    println!("smallest top-1/top-2 gap: with the cache {:.4}, without {:.4}", gaps[0], gaps[1]);
    // the closest call on either path: the same step, decided the same way
    assert!(gaps.iter().all(|&g| (g - 0.0028).abs() < 0.0005), "{gaps:?}");
    assert_eq!(prompts.len(), 6);
    println!("largest |logit difference| over {} prompts: {worst:.2e}", prompts.len());
    assert!(worst < 1e-4, "{worst}");
}
