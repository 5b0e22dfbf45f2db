//! `fixtures/hf_parity.json` (written by `parity/hf_parity.py`), read once for the tests that
//! compare a model of this chapter with Hugging Face's `LlamaForCausalLM`.

use ch10_language_models::llama::lm::LanguageModel;
use serde_json::Value;

/// One prompt of the fixture.
pub struct Prompt {
    pub text: String,
    pub ids: Vec<usize>,
    /// the 64 greedy tokens Hugging Face generated
    pub greedy: Vec<usize>,
    fixture: Value,
}

fn ids_of(v: &Value) -> Vec<usize> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
}

/// Every prompt of the fixture.
pub fn prompts() -> Vec<Prompt> {
    let fixture: Value = serde_json::from_str(include_str!("../fixtures/hf_parity.json")).unwrap();
    fixture["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| Prompt {
            text: p["prompt"].as_str().unwrap().to_string(),
            ids: ids_of(&p["ids"]),
            greedy: ids_of(&p["greedy"]),
            fixture: p.clone(),
        })
        .collect()
}

impl Prompt {
    /// The largest difference between `last` (the last position's logits) and Hugging Face's,
    /// over every 97th logit and its top 20.
    pub fn worst_logit_difference(&self, last: &[f32]) -> f64 {
        let p = &self.fixture;
        let every_97th = p["every_97th"].as_array().unwrap().iter().enumerate();
        let mut worst = every_97th
            .map(|(i, want)| (f64::from(last[i * 97]) - want.as_f64().unwrap()).abs())
            .fold(0f64, f64::max);
        for pair in p["top20"].as_array().unwrap() {
            let (id, want) = (pair[0].as_u64().unwrap() as usize, pair[1].as_f64().unwrap());
            worst = worst.max((f64::from(last[id]) - want).abs());
        }
        worst
    }
}

/// 64 greedy tokens after `prompt`, `<|im_end|>` (id 2) never chosen, as Hugging Face's
/// `min_new_tokens` does; with the cache, or the whole sequence at every step. Also the smallest
/// gap between the two largest logits along the way: how close the closest call was.
pub fn greedy<M: LanguageModel>(model: &M, prompt: &[usize], cached: bool) -> (Vec<usize>, f32) {
    let mut cache = model.new_cache();
    let (mut tokens, mut fresh, mut gap) = (prompt.to_vec(), prompt.len(), f32::INFINITY);
    for _ in 0..64 {
        let logits = if cached {
            model.logits_cached(&tokens[tokens.len() - fresh..], &mut cache)
        } else {
            model.logits(&tokens)
        };
        let mut last = logits[logits.len() - model.vocab()..].to_vec();
        last[2] = f32::NEG_INFINITY;
        let best = support::argmax(&last);
        let top = last[best];
        last[best] = f32::NEG_INFINITY;
        gap = gap.min(top - last[support::argmax(&last)]);
        tokens.push(best);
        fresh = 1;
    }
    (tokens[prompt.len()..].to_vec(), gap)
}
