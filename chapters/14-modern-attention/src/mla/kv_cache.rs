//! The cache a model keeps when it does not absorb: every head's expanded key and value, as
//! multi-head attention keeps them (DeepSeek's inference code with `attn_impl = "naive"`, and
//! Hugging Face's `DeepseekV3Attention` before `transformers` 5). Each step expands only its own
//! tokens; the price is `HEADS × (NOPE + ROPE + V)` numbers per token where the latent cache
//! holds `KV_RANK + ROPE`.

use dfdx::prelude::*;

use super::attention::HeadKeysValues;

/// One layer's expanded keys and values, in position order from position 0.
#[derive(Clone, Debug, Default)]
pub struct KvCache<
    const HEADS: usize,
    const NOPE: usize,
    const ROPE: usize,
    const V: usize,
    Dev: Device<f32>,
> {
    held: Option<HeadKeysValues<HEADS, NOPE, ROPE, V, Dev>>,
}

impl<
        const HEADS: usize,
        const NOPE: usize,
        const ROPE: usize,
        const V: usize,
        Dev: Device<f32>,
    > KvCache<HEADS, NOPE, ROPE, V, Dev>
{
    pub fn new() -> Self {
        KvCache { held: None }
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.held.as_ref().map_or(0, |h| h.values.shape().2)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the keys and values of new tokens and returns everything held.
    pub fn append(
        &mut self,
        new: HeadKeysValues<HEADS, NOPE, ROPE, V, Dev>,
    ) -> HeadKeysValues<HEADS, NOPE, ROPE, V, Dev> {
        let all = match self.held.take() {
            None => new,
            Some(old) => HeadKeysValues {
                k_nope: (old.k_nope, new.k_nope).concat_along(Axis::<2>),
                k_rot: (old.k_rot, new.k_rot).concat_along(Axis::<2>),
                values: (old.values, new.values).concat_along(Axis::<2>),
            },
        };
        self.held = Some(all.clone());
        all
    }

    /// Bytes of the tensors it holds (`f32`): `HEADS × (NOPE + ROPE + V) × 4` per token.
    pub fn bytes(&self) -> usize {
        let batch = self.held.as_ref().map_or(0, |h| h.values.shape().0);
        batch * self.len() * HEADS * (NOPE + ROPE + V) * std::mem::size_of::<f32>()
    }
}
