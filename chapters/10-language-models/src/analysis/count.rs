//! What one step of the model costs by count of multiply-adds, to say which part of a step grows
//! fastest. A token's projections, feed-forward network and output layer cost the same at any
//! position; its attention compares it with every key before it, so it grows with the context.

use crate::llama::config::Config;

/// Multiply-adds for one token at a context of `keys` keys, the whole model: `(fixed, attention)`.
/// `fixed` is the matrix products that do not depend on the context (per layer `q`, `k`, `v`, `o`
/// and the three SwiGLU matrices; then the output layer); `attention` is the scores `q·k` and the
/// weighted sum of the values, `2 · keys · heads · head_dim` per layer.
// ANCHOR: per_token
pub fn multiply_adds_per_token(c: Config, keys: usize) -> (usize, usize) {
    let (m, kv, f) = (c.hidden_size, c.kv_width(), c.intermediate_size);
    let per_layer = 2 * m * m + 2 * m * kv + 3 * m * f;
    let fixed = c.num_hidden_layers * per_layer + m * c.vocab_size;
    let width = c.num_attention_heads * c.head_dim;
    let attention = c.num_hidden_layers * 2 * keys * width;
    (fixed, attention)
}
// ANCHOR_END: per_token

/// The context from which a token's attention costs more multiply-adds than the rest of its
/// step: the smallest `keys` with `attention > fixed`.
pub fn attention_crossover(c: Config) -> usize {
    let (fixed, per_key) = (multiply_adds_per_token(c, 0).0, multiply_adds_per_token(c, 1).1);
    fixed / per_key + 1
}
