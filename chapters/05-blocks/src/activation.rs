//! The feed-forward network's non-linearity: ReLU, as in the 2017 Transformer, or GELU, as in BERT
//! and GPT.

use dfdx::prelude::*;
use num_traits::{NumCast, ToPrimitive};

/// Which function the feed-forward network applies between its two linear layers.
///
/// PyTorch equivalent: the `activation` argument of `nn.TransformerEncoderLayer` (`"relu"`, the
/// default, or `"gelu"`), and `hidden_act` in a Hugging Face `config.json`.
// ANCHOR: activation
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// `max(0, x)` ([Vaswani et al. 2017](https://arxiv.org/abs/1706.03762)).
    #[default]
    Relu,
    /// `x * Phi(x)`, with `Phi` the standard normal distribution function, computed exactly with
    /// `erf` ([Hendrycks and Gimpel 2016](https://arxiv.org/abs/1606.08415)): PyTorch's
    /// `F.gelu` and BERT's `"gelu"`, not the `tanh` approximation.
    Gelu,
}

impl Activation {
    /// Applies the function to every element.
    pub fn apply<S: Shape, Dev: Device<f32>, T: Tape<f32, Dev>>(
        self,
        x: Tensor<S, f32, Dev, T>,
    ) -> Tensor<S, f32, Dev, T> {
        match self {
            Activation::Relu => x.relu(),
            Activation::Gelu => x.accurate_gelu(),
        }
    }
}
// ANCHOR_END: activation

impl std::str::FromStr for Activation {
    type Err = String;

    /// The names PyTorch and Hugging Face configurations use: `"relu"` or `"gelu"`.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "relu" => Ok(Activation::Relu),
            "gelu" => Ok(Activation::Gelu),
            other => Err(format!(
                "unknown activation {other:?}: the feed-forward network has \"relu\" and \"gelu\" \
                 (the exact erf form)"
            )),
        }
    }
}

/// dfdx saves a module's settings as numbers (its scalar fields are `NumCast`): ReLU is stored as
/// 0 and GELU as 1, so the choice survives saving, loading and moving to another device.
impl ToPrimitive for Activation {
    fn to_i64(&self) -> Option<i64> {
        Some(*self as i64)
    }

    fn to_u64(&self) -> Option<u64> {
        Some(*self as u64)
    }
}

impl NumCast for Activation {
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        match n.to_f64()? {
            0.0 => Some(Activation::Relu),
            1.0 => Some(Activation::Gelu),
            _ => None,
        }
    }
}
