//! The chapter's figures, built from the same functions the text runs. `cargo xtask figures`
//! writes them into the book (`book/src/figures/`); the notebook shows them inline.

use crate::scale;
use dfdx::prelude::*;
use support::{Heatmap, Svg};

/// A fixed 2 x 3 matrix scaled by 2: the placeholder figure, until the chapter has its own.
pub fn scaled<Dev: Device<f32>>(dev: &Dev) -> Heatmap {
    let x = dev.tensor([[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    Heatmap::new("A 2 x 3 matrix scaled by 2", scale(x, 2.0).as_vec(), 2, 3)
        .axes("column", "row")
        .decimals(Some(0))
}

/// Every figure of the chapter with its file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, Svg)> {
    vec![("ch11-scaled.svg", scaled(dev).to_svg())]
}
