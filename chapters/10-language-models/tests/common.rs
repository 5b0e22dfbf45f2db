//! What several test files build: small seeded models and their inputs.

use ch10_language_models::CausalLm;
use dfdx::nn::BuildModule;
use dfdx::prelude::*;

/// A seeded model of any configuration.
pub fn seeded_model<
    const V: usize,
    const M: usize,
    const H: usize,
    const KV: usize,
    const DK: usize,
    const KVD: usize,
    const F: usize,
    const L: usize,
>(
    seed: u64,
) -> CausalLm<V, M, H, KV, DK, KVD, F, L, f32, support::Dev> {
    let dev = support::seeded_device(seed);
    BuildModule::build(&dev)
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
