//! Perplexity: `exp` of the mean negative log-likelihood the model gives each next token of a
//! text. A model that has learned the text's language scores low; one whose attention is broken
//! scores near a guess among its vocabulary.

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
        .map(|i| {
            let row = &logits[i * vocab..(i + 1) * vocab];
            let max = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            let log_sum = row.iter().map(|&x| f64::from(x - max).exp()).sum::<f64>().ln();
            log_sum - f64::from(row[ids[i + 1]] - max)
        })
        .sum();
    (nll / (ids.len() - 1) as f64).exp()
}
