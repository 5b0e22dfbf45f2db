//! What the quadratic cost of dense attention is, in numbers: one score per (query, key) pair,
//! `n²` per head, and the memory to hold them.

/// The number format the scores are held in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// 4 bytes a score
    F32,
    /// 2 bytes a score (`torch.float16`, also `bfloat16`)
    F16,
}

impl Precision {
    /// Bytes per score.
    pub fn bytes(self) -> u64 {
        match self {
            Precision::F32 => 4,
            Precision::F16 => 2,
        }
    }
}

/// A model's shape, for the all-layers total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelShape {
    pub heads: u64,
    pub layers: u64,
}

/// 32 heads and 24 layers: the model of the memory example.
pub const HEADS_32_LAYERS_24: ModelShape = ModelShape { heads: 32, layers: 24 };

// ANCHOR: cost
/// Scores one head computes for a sequence of `n` tokens: every query against every key.
pub fn scores_per_head(n: u64) -> u64 {
    n * n
}

/// Bytes to hold one head's `n x n` scores (or its weights: the softmax keeps the shape).
pub fn bytes_per_head(n: u64, p: Precision) -> u64 {
    scores_per_head(n) * p.bytes()
}

/// Bytes to hold every head's scores in every layer at once.
pub fn bytes_per_model(n: u64, p: Precision, m: ModelShape) -> u64 {
    bytes_per_head(n, p) * m.heads * m.layers
}
// ANCHOR_END: cost

/// `bytes` in the largest binary unit that keeps the number at least 1 (`"128 MiB"`).
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(128 << 20), "128 MiB");
        assert_eq!(human(3 << 29), "1.5 GiB");
    }
}
