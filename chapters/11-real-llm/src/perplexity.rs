//! Perplexity: `exp` of the mean negative log-likelihood the model gives each next token of a
//! text: a model that spread its probability evenly over `k` tokens at every step would score
//! `k`. Its logarithm is the mean number of nats per token.

use ch10_language_models::llama::lm::LanguageModel;

/// The perplexity of `ids` (one sequence, run whole): every token after the first, predicted
/// from the ones before it.
///
/// # Panics
/// If `ids` holds fewer than two tokens.
pub fn perplexity<M: LanguageModel>(model: &M, ids: &[usize]) -> f64 {
    assert!(ids.len() >= 2, "perplexity needs at least two tokens");
    let (logits, vocab) = (model.logits(ids), model.vocab());
    let nll: f64 = (0..ids.len() - 1)
        .map(|i| negative_log_likelihood(&logits[i * vocab..(i + 1) * vocab], ids[i + 1]))
        .sum();
    (nll / (ids.len() - 1) as f64).exp()
}

/// `-ln softmax(logits)[next]`: how surprised the model is by the token that came.
pub fn negative_log_likelihood(logits: &[f32], next: usize) -> f64 {
    let max = logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    let log_sum = logits.iter().map(|&x| f64::from(x - max).exp()).sum::<f64>().ln();
    log_sum - f64::from(logits[next] - max)
}
