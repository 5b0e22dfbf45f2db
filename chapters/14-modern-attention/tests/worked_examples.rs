//! The worked examples of chapter 14, with every number its page shows.

use ch14_modern_attention::mla::products::{dots, dots_shared, each_head, per_head};
use dfdx::prelude::*;

/// A latent `c = [1, 2]`, one head whose key expansion `W^UK` has rows `[1, 0]` and `[1, 1]`,
/// and a query `q = [2, 1]`. Expanded: `k = W^UK c = [1, 3]` and `q · k = 5`. Absorbed:
/// `W^UK^T q = [3, 1]` and `[3, 1] · c = 5`.
#[test]
fn worked_example_absorbed_score() {
    let dev = support::Dev::default();
    let c = dev.tensor_from_vec(vec![1.0f32, 2.0], (1usize, 1usize, Const::<2>));
    // per-head matrices are stored (heads, in, out): W^UK^T, the latent's 2 numbers in
    let w_uk_t = dev.tensor([[[1.0f32, 1.0], [0.0, 1.0]]]);
    let k = per_head(c.clone(), &w_uk_t);
    assert_eq!(k.as_vec(), [1.0, 3.0]);
    let q = dev.tensor_from_vec(vec![2.0f32, 1.0], (1usize, Const::<1>, 1usize, Const::<2>));
    assert_eq!(dots(q.clone(), k).as_vec(), [5.0]);
    // absorbed: the query through W^UK^T's transpose, W^UK, then straight against the latent
    let w_uk = dev.tensor([[[1.0f32, 0.0], [1.0, 1.0]]]);
    let q_latent = each_head(q, &w_uk);
    assert_eq!(q_latent.as_vec(), [3.0, 1.0]);
    // every head's query against the one latent the heads share
    assert_eq!(dots_shared(q_latent, &c).as_vec(), [5.0]);
}
