//! Chapter 1 in the page: weightless self-attention over tokens the reader edits, and the scaling
//! experiment (why scores are divided by √d_k) at a width the reader picks.

use ch01_attention::{scaling, simple_self_attention};
use dfdx::prelude::*;

/// Numbers per token in the sentence widget: the chapter's "The cat sat down" has three.
pub const WIDTH: usize = 3;

/// Weightless self-attention of `tokens` (`n` rows of [`WIDTH`] numbers, row-major): the scores
/// (`n × n`), the softmax weights (`n × n`) and the context vectors (`n × WIDTH`), one after the
/// other.
pub fn sentence(tokens: &[f32]) -> Result<Vec<f32>, String> {
    if tokens.is_empty() || !tokens.len().is_multiple_of(WIDTH) {
        return Err(format!("tokens come in rows of three numbers; got {} numbers", tokens.len()));
    }
    if let Some(bad) = tokens.iter().find(|x| !x.is_finite()) {
        return Err(format!("every number must be finite; got {bad}"));
    }
    let dev = Cpu::default();
    let x = dev.tensor_from_vec(tokens.to_vec(), (tokens.len() / WIDTH, Const::<WIDTH>));
    let att = simple_self_attention(&x);
    Ok([att.scores.as_vec(), att.weights.as_vec(), att.context.as_vec()].concat())
}

/// The chapter's sentence, "The cat sat down", [`WIDTH`] numbers per word: the editor's start.
pub fn embeddings() -> Vec<f32> {
    ch01_attention::weightless::EMBEDDINGS.concat()
}

/// The widths the scaling slider offers (the chapter's figure uses 512).
pub const SCALING_WIDTHS: [usize; 6] = [2, 8, 32, 128, 512, 2048];
/// Queries and keys of the experiment, and its seed: those of the chapter's figure.
pub const SCALING_KEYS: usize = 8;
pub const SCALING_SEED: u64 = 42;

/// The scaling experiment at width `d_k` (one of [`SCALING_WIDTHS`]): query 0's weights over the
/// [`SCALING_KEYS`] keys, unscaled then scaled, followed by each side's statistics (standard
/// deviation of the scores, mean largest weight of a row, share of rows above 0.99): 8 + 8 + 3 + 3
/// numbers.
pub fn scaling(d_k: usize) -> Result<Vec<f32>, String> {
    let dev = Cpu::default();
    let (n, seed) = (SCALING_KEYS, SCALING_SEED);
    let exp = match d_k {
        2 => scaling::run::<2, _>(&dev, n, seed),
        8 => scaling::run::<8, _>(&dev, n, seed),
        32 => scaling::run::<32, _>(&dev, n, seed),
        128 => scaling::run::<128, _>(&dev, n, seed),
        512 => scaling::run::<512, _>(&dev, n, seed),
        2048 => scaling::run::<2048, _>(&dev, n, seed),
        _ => return Err(format!("d_k must be one of {SCALING_WIDTHS:?}; got {d_k}")),
    };
    let (raw, scaled) = exp.row(0);
    let stats = |s: scaling::ScoreStats| [s.score_std, s.mean_max_weight, s.saturated_rows];
    Ok([raw, scaled, &stats(exp.unscaled()), &stats(exp.scaled())].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_gives_scores_weights_and_context() {
        let out = sentence(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]).unwrap();
        // two orthogonal unit tokens: scores [[1, 0], [0, 1]], weights e/(1+e) on the diagonal
        assert_eq!(&out[..4], &[1.0, 0.0, 0.0, 1.0]);
        let e = std::f32::consts::E;
        assert!((out[4] - e / (1.0 + e)).abs() < 1e-6);
        assert_eq!(out.len(), 4 + 4 + 6);
    }

    #[test]
    fn bad_input_is_refused_with_a_message() {
        assert!(sentence(&[]).unwrap_err().contains("rows of three"));
        assert!(sentence(&[1.0, f32::NAN, 0.0]).unwrap_err().contains("finite"));
        assert!(scaling(7).unwrap_err().contains("one of"));
    }

    #[test]
    fn scaling_at_the_figures_width_saturates_unscaled_and_not_scaled() {
        let out = scaling(512).unwrap();
        assert_eq!(out.len(), 8 + 8 + 3 + 3);
        let (unscaled_max, scaled_max) = (out[17], out[20]);
        assert!(unscaled_max > 0.9 && scaled_max < 0.7, "{out:?}");
    }
}
