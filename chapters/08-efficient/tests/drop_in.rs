//! Chapter 3's multi-head attention and chapter 5's encoder give the same outputs on the tiled
//! kernel as on chapter 1's attention.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::{Encoder, Mode, PreNorm};
use ch08_efficient::mha::{encoder_tiled, mha_tiled};
use ch08_efficient::{Causal, Full};
use dfdx::prelude::*;
use support::{normal_tensor, Dev};

#[test]
fn multi_head_attention_on_the_tiled_kernel() {
    let dev = Dev::seed_from_u64(0);
    let mha = MultiHeadAttention::<64, 8, 8, f32, Dev>::new(&dev);
    let x: Tensor<(usize, usize, Const<64>), f32, Dev> =
        normal_tensor(&dev, 1, (2, 37, Const::<64>));
    let (want, _) = mha.forward(x.clone(), x.clone(), x.clone(), None);
    let got = mha_tiled(&mha, x.clone(), x.clone(), x.clone(), &Full);
    support::assert_close(&got.as_vec(), &want.as_vec(), 1e-5);

    let causal = broadcast_mask(causal_allowed(&dev, 37), 2, Const::<8>);
    let (want, _) = mha.forward(x.clone(), x.clone(), x.clone(), Some(&causal));
    let got = mha_tiled(&mha, x.clone(), x.clone(), x, &Causal);
    support::assert_close(&got.as_vec(), &want.as_vec(), 1e-5);
}

#[test]
fn encoder_on_the_tiled_kernel() {
    let dev = Dev::seed_from_u64(1);
    let enc = Encoder::<32, 4, 8, 64, 3, PreNorm, f32, Dev>::new(&dev);
    let x: Tensor<(usize, usize, Const<32>), f32, Dev> =
        normal_tensor(&dev, 2, (3, 20, Const::<32>));
    let (want, _) = enc.forward(x.clone(), None, Mode::Eval);
    let got = encoder_tiled(&enc, x, &Full);
    support::assert_close(&got.as_vec(), &want.as_vec(), 1e-5);
}
