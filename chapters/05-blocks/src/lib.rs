//! # Chapter 5 — Transformer blocks
//!
//! Attention alone is not a Transformer layer. Around it sit layer normalisation, a position-wise
//! feed-forward network, dropout and residual connections. This crate builds each piece from
//! scratch, assembles them into encoder and decoder blocks (pre-norm and post-norm), stacks the
//! blocks, and wires embeddings, positions and an output projection around the stacks.
//!
//! * [`norm`]: [`LayerNorm`] (PyTorch's) and [`StdNorm`] (unbiased std, eps outside the root);
//! * [`dropout`](mod@dropout): [`dropout()`] and the [`Mode`] it acts in;
//! * [`ffn`]: the position-wise [`FeedForward`] network, with ReLU or GELU ([`Activation`]);
//! * [`placement`]: [`PreNorm`] / [`PostNorm`] and the residual sub-layer
//!   ([`Placement::residual`]);
//! * [`block`]: [`EncoderBlock`], [`DecoderBlock`];
//! * [`stack`]: [`Encoder`] and [`Decoder`] stacks of `L` blocks;
//! * [`transformer`]: [`Transformer`] (what `nn.Transformer` is);
//! * [`seq2seq`]: [`Seq2Seq`] (tokens in, logits out), and [`EmbedError`] for ids it cannot
//!   embed;
//! * [`gradcheck`]: central finite differences, to check dfdx's gradients;
//! * [`pytorch`]: PyTorch's state-dict names loaded into these blocks (the parity tests use it);
//! * [`presets`]: the configurations the book runs, by name ([`DemoSeq2Seq`], ...).
//!
//! Sizes are part of the types, so a block whose heads do not divide `d_model` does not compile
//! (the check is chapter 3's, evaluated where the block's attention runs):
//!
//! ```compile_fail,E0080
//! use ch05_blocks::{EncoderBlock, Mode, PreNorm};
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! // 8 heads of 9 dimensions are 72, not 64
//! let block = EncoderBlock::<64, 8, 9, 256, PreNorm, f32, Cpu>::new(&dev);
//! let x: Tensor<(usize, usize, Const<64>), f32, Cpu> = dev.zeros_like(&(1, 3, Const::<64>));
//! let _ = block.forward(x, None, Mode::Eval);
//! ```
//!
//! and neither does a decoder fed an encoder output of another width:
//!
//! ```compile_fail,E0308
//! use ch05_blocks::{DecoderBlock, Mode, PostNorm};
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! let block = DecoderBlock::<64, 8, 8, 256, PostNorm, f32, Cpu>::new(&dev);
//! let x: Tensor<(usize, usize, Const<64>), f32, Cpu> = dev.zeros_like(&(1, 3, Const::<64>));
//! let memory: Tensor<(usize, usize, Const<32>), f32, Cpu> = dev.zeros_like(&(1, 5, Const::<32>));
//! let _ = block.forward(x, &memory, None, None, Mode::Eval);
//! ```
//!
//! The same two calls with matching sizes compile and run:
//!
//! ```
//! use ch05_blocks::{DecoderBlock, EncoderBlock, Mode, PostNorm, PreNorm};
//! use dfdx::prelude::*;
//! let dev: Cpu = Default::default();
//! let enc = EncoderBlock::<64, 8, 8, 256, PreNorm, f32, Cpu>::new(&dev);
//! let dec = DecoderBlock::<64, 8, 8, 256, PostNorm, f32, Cpu>::new(&dev);
//! let src: Tensor<(usize, usize, Const<64>), f32, Cpu> = dev.ones_like(&(1, 5, Const::<64>));
//! let tgt: Tensor<(usize, usize, Const<64>), f32, Cpu> = dev.ones_like(&(1, 3, Const::<64>));
//! let (memory, _) = enc.forward(src, None, Mode::Eval);
//! let (out, w) = dec.forward(tgt, &memory, None, None, Mode::Eval);
//! assert_eq!(out.shape().concrete(), [1, 3, 64]);
//! assert_eq!(w.cross_attn.shape().concrete(), [1, 8, 3, 5]);
//! ```

pub mod activation;
pub mod block;
pub mod dropout;
pub mod error;
pub mod ffn;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod gradcheck;
pub mod norm;
pub mod placement;
pub mod presets;
pub mod pytorch;
pub mod seq2seq;
pub mod stack;
pub mod transformer;

pub use activation::Activation;
pub use block::{DecoderBlock, DecoderWeights, EncoderBlock};
pub use dropout::{dropout, Mode, DEFAULT_DROPOUT};
pub use error::EmbedError;
pub use ffn::FeedForward;
pub use norm::{LayerNorm, StdNorm};
pub use placement::{Placement, PostNorm, PreNorm};
pub use presets::{
    DemoDecoderBlock, DemoEncoderBlock, DemoSeq2Seq, DemoTransformer, TinyDecoder,
    TinyDecoderBlock, TinyEncoder, TinyEncoderBlock,
};
pub use seq2seq::{DecoderOutput, EncoderOutput, Seq2Seq, DEFAULT_MAX_LEN};
pub use stack::{Decoder, Encoder};
pub use transformer::{Seq2SeqMasks, Transformer};
