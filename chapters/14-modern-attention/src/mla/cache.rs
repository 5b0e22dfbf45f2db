//! The cache of multi-head latent attention: per token and layer, the latent `c` (`KV_RANK`
//! numbers) and the turned shared key (`ROPE`), against `2 × HEADS × head width` for
//! multi-head attention's keys and values.

use dfdx::prelude::*;

use super::attention::Latents;

/// One layer's latents, in position order from position 0.
#[derive(Clone, Debug, Default)]
pub struct LatentCache<const KV_RANK: usize, const ROPE: usize, Dev: Device<f32>> {
    held: Option<Latents<KV_RANK, ROPE, Dev>>,
}

impl<const KV_RANK: usize, const ROPE: usize, Dev: Device<f32>> LatentCache<KV_RANK, ROPE, Dev> {
    pub fn new() -> Self {
        LatentCache { held: None }
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.held.as_ref().map_or(0, |h| h.latent.shape().1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the latents of new tokens and returns everything held, the new ones included.
    pub fn append(&mut self, new: Latents<KV_RANK, ROPE, Dev>) -> Latents<KV_RANK, ROPE, Dev> {
        let all = match self.held.take() {
            None => new,
            Some(old) => Latents {
                latent: (old.latent, new.latent).concat_along(Axis::<1>),
                k_rot: (old.k_rot, new.k_rot).concat_along(Axis::<1>),
            },
        };
        self.held = Some(all.clone());
        all
    }

    /// What it holds, if anything.
    pub fn held(&self) -> Option<&Latents<KV_RANK, ROPE, Dev>> {
        self.held.as_ref()
    }

    /// Bytes of the tensors it holds (`f32`): `(KV_RANK + ROPE) × 4` per token of a sequence.
    pub fn bytes(&self) -> usize {
        let batch = self.held.as_ref().map_or(0, |h| h.latent.shape().0);
        batch * self.len() * (KV_RANK + ROPE) * std::mem::size_of::<f32>()
    }
}
