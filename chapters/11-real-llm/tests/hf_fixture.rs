//! `fixtures/hf_parity.json` and `fixtures/hf_parity_logits.safetensors` (written by
//! `parity/hf_parity.py`), read for the tests that compare a model of this chapter with Hugging
//! Face's `LlamaForCausalLM`: each prompt's ids, its 64 greedy tokens, and the last position's
//! logits over the whole vocabulary.

use ch10_language_models::llama::lm::LanguageModel;
use serde_json::Value;

/// SmolLM2's vocabulary: the number of logits a position has.
const VOCAB: usize = ch11_real_llm::smollm2::CONFIG.vocab_size;

/// One prompt of the fixture.
pub struct Prompt {
    pub text: String,
    pub ids: Vec<usize>,
    /// the 64 greedy tokens Hugging Face generated
    pub greedy: Vec<usize>,
    /// Hugging Face's logits at the last position, one for every token of the vocabulary
    pub last_logits: Vec<f32>,
}

fn ids_of(v: &Value) -> Vec<usize> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
}

/// Hugging Face's last-position logits of prompt `n`, read from the safetensors file.
fn last_logits(file: &safetensors::SafeTensors<'_>, n: usize) -> Vec<f32> {
    let view = file.tensor(&format!("last_logits.{n}")).unwrap();
    assert_eq!((view.dtype(), view.shape()), (safetensors::Dtype::F32, &[VOCAB][..]));
    view.data().chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

/// Every prompt of the fixture.
pub fn prompts() -> Vec<Prompt> {
    let fixture: Value = serde_json::from_str(include_str!("../fixtures/hf_parity.json")).unwrap();
    let bytes = include_bytes!("../fixtures/hf_parity_logits.safetensors");
    let logits = safetensors::SafeTensors::deserialize(bytes).unwrap();
    let prompts = fixture["prompts"].as_array().unwrap();
    assert_eq!(logits.len(), prompts.len(), "a tensor of logits for every prompt");
    prompts
        .iter()
        .enumerate()
        .map(|(n, p)| Prompt {
            text: p["prompt"].as_str().unwrap().to_string(),
            ids: ids_of(&p["ids"]),
            greedy: ids_of(&p["greedy"]),
            last_logits: last_logits(&logits, n),
        })
        .collect()
}

impl Prompt {
    /// The largest difference between `last` (the last position's logits) and Hugging Face's,
    /// over the whole vocabulary.
    pub fn worst_logit_difference(&self, last: &[f32]) -> f64 {
        assert_eq!(last.len(), VOCAB, "one logit for every token");
        last.iter()
            .zip(&self.last_logits)
            .map(|(&ours, &theirs)| (f64::from(ours) - f64::from(theirs)).abs())
            .fold(0f64, f64::max)
    }
}

/// The greedy tokens without the cache, in one pass: the model runs `prompt` and `tokens` (the
/// 64 greedy tokens to check) once, and the logits at each position pick the next token,
/// `<|im_end|>` (id 2) never chosen. A causal model's logits at a position depend only on the
/// tokens up to it, so this one pass computes what [`greedy`] without the cache computes in 64,
/// one per step; if every pick is the next of `tokens`, those are the greedy tokens. Also the
/// smallest gap between the two largest logits over the picks.
pub fn greedy_in_one_pass<M: LanguageModel>(
    model: &M,
    prompt: &[usize],
    tokens: &[usize],
) -> (Vec<usize>, f32) {
    let all: Vec<usize> = prompt.iter().chain(tokens).copied().collect();
    let logits = model.logits(&all);
    let vocab = model.vocab();
    let mut gap = f32::INFINITY;
    let picks = (prompt.len() - 1..all.len() - 1)
        .map(|position| {
            let (best, g) = greedy_pick(&logits[position * vocab..(position + 1) * vocab]);
            gap = gap.min(g);
            best
        })
        .collect();
    (picks, gap)
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
        let (best, g) = greedy_pick(&logits[logits.len() - model.vocab()..]);
        gap = gap.min(g);
        tokens.push(best);
        fresh = 1;
    }
    (tokens[prompt.len()..].to_vec(), gap)
}

/// The likeliest token of one position's logits, `<|im_end|>` (id 2) never chosen, and its lead
/// over the second likeliest.
fn greedy_pick(logits: &[f32]) -> (usize, f32) {
    let mut row = logits.to_vec();
    row[2] = f32::NEG_INFINITY;
    let best = support::argmax(&row);
    let top = row[best];
    row[best] = f32::NEG_INFINITY;
    (best, top - row[support::argmax(&row)])
}
