//! Dropout that acts only in training, and the [`Mode`] that says which it is.

use dfdx::prelude::*;

/// Training or inference. Dropout only acts in [`Mode::Train`]; in [`Mode::Eval`] a forward pass is
/// deterministic. This is PyTorch's `model.train()` / `model.eval()`, passed explicitly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Train,
    Eval,
}

/// PyTorch's default dropout probability in `nn.TransformerEncoderLayer`.
pub const DEFAULT_DROPOUT: f32 = 0.1;

/// Inverted dropout: in training, zero each element with probability `p` and scale the survivors by
/// `1 / (1 - p)` so the expected value is unchanged; in evaluation, the identity.
// ANCHOR: dropout
pub fn dropout<S: Shape, Dev: Device<f32>, T: Tape<f32, Dev>>(
    x: Tensor<S, f32, Dev, T>,
    p: f32,
    mode: Mode,
) -> Tensor<S, f32, Dev, T> {
    assert_probability(p);
    match mode {
        Mode::Train if p > 0.0 => x.dropout(p),
        _ => x,
    }
}
// ANCHOR_END: dropout

/// # Panics
/// Unless `0 <= p < 1`, with a message that names the value.
pub fn assert_probability(p: f32) {
    assert!((0.0..1.0).contains(&p), "dropout probability must be in [0, 1), got {p}");
}
