//! The chapter's figures: the two layer norms, encoder and cross-attention weights, and how the
//! residual stream grows with depth in pre-norm and post-norm stacks.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch03_multi_head::average_heads;
use dfdx::prelude::*;
use support::{normal_tensor, seeded_device, BarChart, Heatmap, LineChart};

use crate::{
    LayerNorm, Mode, Placement, PostNorm, PreNorm, StdNorm, TinyDecoderBlock, TinyEncoderBlock,
};

/// `[1, 2, 3, 4]` through both layer norms (gamma 1, beta 0).
pub fn layer_norms() -> BarChart {
    let dev = seeded_device(0);
    let x = dev.tensor_from_vec(vec![1.0f32, 2.0, 3.0, 4.0], (1, 1, Const::<4>));
    let standard = LayerNorm::<4, f32, _>::new(&dev).forward(x.clone()).as_vec();
    let std_norm_form = StdNorm::<4, f32, _>::new(&dev).forward(x).as_vec();
    BarChart::new("x = [1, 2, 3, 4] normalised two ways", &["x1", "x2", "x3", "x4"])
        .series("LayerNorm (biased variance)", standard)
        .series("unbiased std + eps", std_norm_form)
        .y_desc("normalised value")
        .y_range(-1.6, 1.6)
}

/// Self-attention weights of a seeded encoder block on 6 tokens, averaged over its 4 heads.
// ANCHOR: encoder_heatmap
pub fn encoder_weights() -> Heatmap {
    let dev = seeded_device(0);
    let block = TinyEncoderBlock::<PreNorm, _>::new(&dev);
    let x = normal_tensor(&dev, 5, (1, 6, Const::<16>));
    let (_, w) = block.forward(x, None, Mode::Eval);
    Heatmap::new("encoder self-attention (mean of 4 heads)", average_heads(w).as_vec(), 6, 6)
        .axes("key position", "query position")
        .range(0.0, 1.0)
}
// ANCHOR_END: encoder_heatmap

/// Cross-attention of a seeded decoder block: 5 target tokens (causal self-mask) over 7 memory tokens.
pub fn cross_weights() -> Heatmap {
    let dev = seeded_device(0);
    let block = TinyDecoderBlock::<PreNorm, _>::new(&dev);
    let tgt = normal_tensor(&dev, 6, (1, 5, Const::<16>));
    let memory = normal_tensor(&dev, 7, (1, 7, Const::<16>));
    let causal = broadcast_mask(causal_allowed(&dev, 5), 1, Const::<4>);
    let (_, w) = block.forward(tgt, &memory, Some(&causal), None, Mode::Eval);
    Heatmap::new(
        "decoder cross-attention (mean of 4 heads)",
        average_heads(w.cross_attn).as_vec(),
        5,
        7,
    )
    .axes("memory (encoder) position", "target position")
}

/// The standard deviation of the residual stream after each of `depth` blocks (same seed for both
/// placements, so the weights are the same).
pub fn stream_std<P: Placement>(depth: usize) -> Vec<f32> {
    let dev = seeded_device(3);
    let mut x = normal_tensor(&dev, 8, (2, 8, Const::<16>));
    (0..depth)
        .map(|_| {
            x = TinyEncoderBlock::<P, _>::new(&dev).forward(x.clone(), None, Mode::Eval).0;
            let v = x.as_vec();
            let mean = v.iter().sum::<f32>() / v.len() as f32;
            (v.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / v.len() as f32).sqrt()
        })
        .collect()
}

/// [`stream_std`] for 12 pre-norm and 12 post-norm blocks.
pub fn depth() -> LineChart {
    let points =
        |v: Vec<f32>| v.into_iter().enumerate().map(|(i, s)| (i as f32 + 1.0, s)).collect();
    LineChart::new("residual stream after each block", "block", "standard deviation")
        .line("pre-norm", points(stream_std::<PreNorm>(12)))
        .line("post-norm", points(stream_std::<PostNorm>(12)))
}

/// Every figure of the chapter with its file name.
pub fn all() -> Vec<(&'static str, support::Svg)> {
    vec![
        ("ch05-layernorm.svg", layer_norms().to_svg()),
        ("ch05-encoder-weights.svg", encoder_weights().to_svg()),
        ("ch05-cross-weights.svg", cross_weights().to_svg()),
        ("ch05-depth.svg", depth().to_svg()),
    ]
}
