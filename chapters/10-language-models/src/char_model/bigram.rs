//! The baseline a language model has to beat: predict each character from the one before it
//! alone, with counts from the training text (add-one smoothing, so no character gets
//! probability 0).

/// Character-pair counts turned into probabilities, `VOCAB x VOCAB`.
#[derive(Clone, Debug)]
pub struct Bigram {
    vocab: usize,
    /// `log p(next | previous)`, row `previous`
    log_p: Vec<f64>,
}

impl Bigram {
    /// Counts every pair of neighbours in `ids` (ids below `vocab`), plus one for every pair.
    pub fn fit(ids: &[usize], vocab: usize) -> Self {
        let mut counts = vec![1.0f64; vocab * vocab];
        for pair in ids.windows(2) {
            counts[pair[0] * vocab + pair[1]] += 1.0;
        }
        for row in counts.chunks_mut(vocab) {
            let total: f64 = row.iter().sum();
            row.iter_mut().for_each(|c| *c = (*c / total).ln());
        }
        Bigram { vocab, log_p: counts }
    }

    /// The mean of `-ln p(next | previous)` over every neighbour pair of `ids`: nats per
    /// character.
    pub fn cross_entropy(&self, ids: &[usize]) -> f64 {
        let total: f64 = ids.windows(2).map(|p| -self.log_p[p[0] * self.vocab + p[1]]).sum();
        total / (ids.len() - 1) as f64
    }
}

/// The entropy of the character frequencies of `train`, scored on `held_out` (add-one): what a
/// model that ignores every neighbour reaches, nats per character.
pub fn unigram_cross_entropy(train: &[usize], held_out: &[usize], vocab: usize) -> f64 {
    let mut counts = vec![1.0f64; vocab];
    train.iter().for_each(|&i| counts[i] += 1.0);
    let total: f64 = counts.iter().sum();
    held_out.iter().map(|&i| -(counts[i] / total).ln()).sum::<f64>() / held_out.len() as f64
}
