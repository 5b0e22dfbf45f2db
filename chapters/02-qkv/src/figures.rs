//! The chapter's figures: `cargo xtask figures` writes them into the book, the notebook shows them.

use crate::{bank_loan, tokens, Qkv3To2, EMBEDDINGS, WORDS};
use dfdx::prelude::*;
use support::Heatmap;

/// Weights of the "bank loan" example.
pub fn bank_loan_weights<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let out = bank_loan::layer(dev).forward(tokens(dev, &bank_loan::X));
    Heatmap::new("bank loan: weights with W_Q, W_K, W_V", out.weights.as_vec(), 2, 2)
        .labels(&["bank", "loan"], &["bank", "loan"])
        .decimals(Some(3))
        .range(0.0, 1.0)
}

/// Weights of "The cat sat down" with seeded, untrained 3 -> 2 projections. `seeded` is a device
/// seeded with `seed` (as `support::seeded_device(seed)` makes one), which the title prints.
pub fn learned_weights<Dev: Device<f32>>(seeded: &Dev, seed: u64) -> Heatmap {
    let attn = Qkv3To2::new(seeded);
    let out = attn.forward(tokens(seeded, &EMBEDDINGS));
    let title = format!("The cat sat down, untrained projections (seed {seed})");
    Heatmap::new(title, out.weights.as_vec(), 4, 4).labels(&WORDS, &WORDS).decimals(Some(3))
}

/// Every figure of the chapter with its file name; `seeded` must be a device seeded with 0.
pub fn all<Dev: Device<f32>>(dev: &Dev, seeded: &Dev) -> Vec<(&'static str, support::Svg)> {
    vec![
        ("ch02-bank-loan.svg", bank_loan_weights(dev).to_svg()),
        ("ch02-learned.svg", learned_weights(seeded, 0).to_svg()),
    ]
}
