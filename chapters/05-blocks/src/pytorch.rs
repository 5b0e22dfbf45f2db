//! PyTorch's weights by PyTorch's names: the parameters of `nn.MultiheadAttention`,
//! `nn.LayerNorm` and `nn.TransformerEncoderLayer` / `nn.TransformerDecoderLayer`, as a state dict
//! exported to JSON (`{"self_attn.q_weight": [...], ...}`), loaded into this crate's blocks. The
//! parity tests here and in later chapters load their fixtures with it.

use ch03_multi_head::MultiHeadAttention;
use dfdx::prelude::*;
use serde_json::Value;
use support::fixtures::{load_linear, matrix, vector};

use crate::{DecoderBlock, EncoderBlock, FeedForward, LayerNorm, Placement};

/// `nn.MultiheadAttention` named `name`: its packed `in_proj_weight` exported as the three
/// `name.{q,k,v}_weight` `[M, M]` (and `_bias`), and `name.out_proj`.
pub fn load_attention<const M: usize, const H: usize, const DK: usize, Dev: Device<f32>>(
    dev: &Dev,
    m: &mut MultiHeadAttention<M, H, DK, f32, Dev>,
    w: &Value,
    name: &str,
) {
    for (l, part) in [(&mut m.w_q, "q"), (&mut m.w_k, "k"), (&mut m.w_v, "v")] {
        l.weight = matrix(dev, w, &format!("{name}.{part}_weight"));
        l.bias = vector(dev, w, &format!("{name}.{part}_bias"));
    }
    load_linear(dev, &mut m.w_o, w, &format!("{name}.out_proj"));
}

/// `nn.LayerNorm` named `name`: `name.weight` is our `gamma`, `name.bias` our `beta`.
pub fn load_norm<const M: usize, Dev: Device<f32>>(
    dev: &Dev,
    n: &mut LayerNorm<M, f32, Dev>,
    w: &Value,
    name: &str,
) {
    n.gamma = vector(dev, w, &format!("{name}.weight"));
    n.beta = vector(dev, w, &format!("{name}.bias"));
}

/// The feed-forward part of a PyTorch layer named `prefix`: `linear1` and `linear2`.
pub fn load_ffn<const M: usize, const F: usize, Dev: Device<f32>>(
    dev: &Dev,
    f: &mut FeedForward<M, F, f32, Dev>,
    w: &Value,
    prefix: &str,
) {
    load_linear(dev, &mut f.linear1, w, &format!("{prefix}linear1"));
    load_linear(dev, &mut f.linear2, w, &format!("{prefix}linear2"));
}

/// `nn.TransformerEncoderLayer` whose parameters are named `prefix` + `self_attn...`, `linear1...`,
/// `norm1...` (prefix `""` for a lone layer, `"encoder.layers.0."` inside a model).
pub fn load_encoder_block<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    P: Placement,
    Dev: Device<f32>,
>(
    dev: &Dev,
    block: &mut EncoderBlock<M, H, DK, F, P, f32, Dev>,
    w: &Value,
    prefix: &str,
) {
    load_attention(dev, &mut block.self_attn, w, &format!("{prefix}self_attn"));
    load_ffn(dev, &mut block.ffn, w, prefix);
    load_norm(dev, &mut block.norm1, w, &format!("{prefix}norm1"));
    load_norm(dev, &mut block.norm2, w, &format!("{prefix}norm2"));
}

/// `nn.TransformerDecoderLayer` named as [`load_encoder_block`] says, with its cross-attention
/// `multihead_attn` and a third norm.
pub fn load_decoder_block<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    P: Placement,
    Dev: Device<f32>,
>(
    dev: &Dev,
    block: &mut DecoderBlock<M, H, DK, F, P, f32, Dev>,
    w: &Value,
    prefix: &str,
) {
    load_attention(dev, &mut block.self_attn, w, &format!("{prefix}self_attn"));
    load_attention(dev, &mut block.cross_attn, w, &format!("{prefix}multihead_attn"));
    load_ffn(dev, &mut block.ffn, w, prefix);
    for (n, name) in
        [(&mut block.norm1, "norm1"), (&mut block.norm2, "norm2"), (&mut block.norm3, "norm3")]
    {
        load_norm(dev, n, w, &format!("{prefix}{name}"));
    }
}
