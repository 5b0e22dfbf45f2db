//! What several test files build: small seeded models and their inputs.

use dfdx::nn::BuildModule;
use dfdx::prelude::*;

/// A seeded model of any configuration: `seeded_model::<TinyLlama<Dev>>(seed)`.
pub fn seeded_model<Model: BuildModule<support::Dev, f32>>(seed: u64) -> Model {
    BuildModule::build(&support::seeded_device(seed))
}

/// `len` token ids below `vocab`, from a seed.
pub fn seeded_ids(seed: u64, len: usize, vocab: usize) -> Vec<usize> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..len).map(|_| rng.gen_range(0..vocab)).collect()
}

/// One sequence of ids as a `(1, len)` tensor.
pub fn ids_tensor(
    dev: &support::Dev,
    ids: &[usize],
) -> Tensor<(usize, usize), usize, support::Dev> {
    dev.tensor_from_vec(ids.to_vec(), (1, ids.len()))
}
