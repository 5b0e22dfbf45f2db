//! Why attention divides by `sqrt(d_k)`: an experiment on seeded random queries and keys.
//!
//! The dot product of two random vectors with `d_k` independent standard-normal entries has
//! variance `d_k`. For `d_k = 512` the scores are spread over tens of units, the softmax of each
//! row puts almost all of its mass on one key, and its gradient all but vanishes. Dividing by
//! `sqrt(d_k)` brings the variance back to 1.

use dfdx::prelude::*;

/// Summary statistics of one set of attention scores and their softmax weights.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreStats {
    /// Standard deviation of all scores.
    pub score_std: f32,
    /// Largest absolute score.
    pub score_max_abs: f32,
    /// Mean over the rows of the largest weight in the row (1.0 = one-hot rows).
    pub mean_max_weight: f32,
    /// Fraction of rows whose largest weight exceeds 0.99.
    pub saturated_rows: f32,
}

/// Scores and weights of `seq` random queries against `seq` random keys of size `DK`, unscaled and
/// scaled.
#[derive(Clone, Debug)]
pub struct ScalingExperiment {
    pub seq: usize,
    pub unscaled_scores: Vec<f32>,
    pub unscaled_weights: Vec<f32>,
    pub scaled_scores: Vec<f32>,
    pub scaled_weights: Vec<f32>,
}

/// Runs the experiment with queries and keys drawn from [`support::normal_vec`] with `seed`.
// ANCHOR: experiment
pub fn run<const DK: usize, Dev: Device<f32>>(
    dev: &Dev,
    seq: usize,
    seed: u64,
) -> ScalingExperiment {
    let q = dev.tensor_from_vec(support::normal_vec(seed, seq * DK), (seq, Const::<DK>));
    let k = dev.tensor_from_vec(support::normal_vec(seed + 1, seq * DK), (seq, Const::<DK>));
    let raw = q.matmul(k.permute::<_, Axes2<1, 0>>()); // (seq, seq), variance ~ DK
    let scaled = raw.clone() / (DK as f32).sqrt(); // variance ~ 1
    ScalingExperiment {
        seq,
        unscaled_weights: raw.clone().softmax::<Axis<1>>().as_vec(),
        unscaled_scores: raw.as_vec(),
        scaled_weights: scaled.clone().softmax::<Axis<1>>().as_vec(),
        scaled_scores: scaled.as_vec(),
    }
}
// ANCHOR_END: experiment

/// Statistics of a `seq x seq` score matrix and its row-softmax.
pub fn stats(scores: &[f32], weights: &[f32], seq: usize) -> ScoreStats {
    assert_eq!(scores.len(), seq * seq, "stats: scores are not {seq}x{seq}");
    assert_eq!(weights.len(), seq * seq, "stats: weights are not {seq}x{seq}");
    let n = scores.len() as f64;
    let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / n;
    let var = scores.iter().map(|&s| (s as f64 - mean).powi(2)).sum::<f64>() / n;
    let row_max: Vec<f32> =
        weights.chunks(seq).map(|r| r.iter().copied().fold(0.0, f32::max)).collect();
    ScoreStats {
        score_std: var.sqrt() as f32,
        score_max_abs: scores.iter().map(|s| s.abs()).fold(0.0, f32::max),
        mean_max_weight: row_max.iter().sum::<f32>() / seq as f32,
        saturated_rows: row_max.iter().filter(|&&m| m > 0.99).count() as f32 / seq as f32,
    }
}

impl ScalingExperiment {
    pub fn unscaled(&self) -> ScoreStats {
        stats(&self.unscaled_scores, &self.unscaled_weights, self.seq)
    }
    pub fn scaled(&self) -> ScoreStats {
        stats(&self.scaled_scores, &self.scaled_weights, self.seq)
    }
    /// Row `i` of the unscaled and the scaled weights.
    pub fn row(&self, i: usize) -> (&[f32], &[f32]) {
        let r = i * self.seq..(i + 1) * self.seq;
        (&self.unscaled_weights[r.clone()], &self.scaled_weights[r])
    }
}
