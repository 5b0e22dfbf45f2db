//! The encoder and decoder halves of the model, run separately for inference, give the logits of
//! the whole model, and hand out every layer's attention weights.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch05_blocks::{Mode, PostNorm, Seq2Seq, Seq2SeqMasks};
use dfdx::prelude::*;
use support::{assert_close, seeded_device, Dev};

type Small = Seq2Seq<13, 13, 16, 4, 4, 32, 2, PostNorm, f32, Dev>;

#[test]
fn encode_then_decode_equals_the_whole_model() {
    let dev: Dev = seeded_device(3);
    let model = Small::new(&dev);
    let src = dev.tensor_from_vec(vec![3, 4, 5, 6, 2, 7, 8, 9, 2, 0], (2, 5));
    let tgt = dev.tensor_from_vec(vec![1, 6, 5, 4, 1, 9, 8, 7], (2, 4));
    let causal = broadcast_mask(causal_allowed(&dev, 4), 2, Const::<4>);
    let masks = Seq2SeqMasks { tgt: Some(&causal), ..Default::default() };
    let whole = model.forward(src.clone(), tgt.clone(), masks, Mode::Eval);

    let (memory, enc_weights) = model.encode(src, None);
    let (logits, dec_weights) = model.decode(tgt, &memory, Some(&causal), None);
    assert_close(&logits.as_vec(), &whole.as_vec(), 1e-6);
    assert_eq!((enc_weights.len(), dec_weights.len()), (2, 2));
    assert_eq!(dec_weights[1].cross_attn.shape().concrete(), [2, 4, 4, 5]);
    // every row of cross-attention sums to 1; causal self-attention puts nothing on the future
    for row in dec_weights[0].cross_attn.as_vec().chunks(5) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
    assert_eq!(dec_weights[0].self_attn.as_vec()[1], 0.0);
}

#[test]
fn the_halves_check_their_input() {
    let dev: Dev = seeded_device(0);
    let model = Small::new(&dev);
    let bad = dev.tensor_from_vec(vec![3, 13], (1, 2));
    let err = model.try_encode(bad, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        ch04_positions::TokenOutOfVocab { token: 13, vocab: 13 }.to_string()
    );
}

#[test]
#[should_panic(expected = "token id 13")]
fn the_plain_halves_panic_with_the_errors_message() {
    let dev: Dev = seeded_device(0);
    let model = Small::new(&dev);
    let _ = model.encode(dev.tensor_from_vec(vec![3, 13], (1, 2)), None);
}
