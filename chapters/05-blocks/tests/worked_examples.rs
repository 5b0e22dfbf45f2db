//! The numbers of chapter 5, as the book prints them.

use ch01_attention::{broadcast_mask, causal_allowed};
use ch04_positions::{SequenceTooLong, TokenOutOfVocab};
use ch05_blocks::norm::unbiased_over_biased;
use ch05_blocks::{
    dropout, DemoDecoderBlock, DemoEncoderBlock, DemoSeq2Seq, DemoTransformer, EmbedError,
    EncoderBlock, LayerNorm, Mode, PostNorm, PreNorm, Seq2Seq, Seq2SeqMasks, StdNorm,
    TinyEncoderBlock,
};
use dfdx::prelude::*;
use support::{assert_close, normal_tensor, seeded_device, Dev};

fn token_stats(v: &[f32], d: usize) -> Vec<(f32, f32)> {
    v.chunks(d)
        .map(|t| {
            let mean = t.iter().sum::<f32>() / d as f32;
            let var = t.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / d as f32;
            (mean, var)
        })
        .collect()
}

#[test]
fn worked_example_layer_norm_two_forms() {
    let dev = Dev::default();
    let x = dev.tensor_from_vec(vec![1.0f32, 2.0, 3.0, 4.0], (1, 1, Const::<4>));
    // mean 2.5, biased variance 1.25, unbiased variance 5/3
    let standard = LayerNorm::<4, f32, Dev>::new(&dev).forward(x.clone()).as_vec();
    let std_norm_form = StdNorm::<4, f32, Dev>::new(&dev).forward(x).as_vec();
    let a = 1.5 / (1.25f64 + 1e-5).sqrt();
    let b = 0.5 / (1.25f64 + 1e-5).sqrt();
    assert_close(&standard, &[-a as f32, -b as f32, b as f32, a as f32], 1e-6);
    assert_close(&standard, &[-1.3416, -0.4472, 0.4472, 1.3416], 1e-4);
    let s = (5.0f64 / 3.0).sqrt() + 1e-6;
    assert_close(
        &std_norm_form,
        &[(-1.5 / s) as f32, (-0.5 / s) as f32, (0.5 / s) as f32, (1.5 / s) as f32],
        1e-6,
    );
    assert_close(&std_norm_form, &[-1.1619, -0.3873, 0.3873, 1.1619], 1e-4);
    // the two differ by sqrt((d - 1) / d): 0.866 for d = 4, 0.999 for d = 512
    assert!((std_norm_form[3] / standard[3] - 0.866_025_4).abs() < 1e-5);
    assert!((unbiased_over_biased(4) - 0.866_025_4).abs() < 1e-7);
    assert!((unbiased_over_biased(512) - 0.999_023_0).abs() < 1e-6);
    // printed as 0.866 and 0.999: for d = 4 the forms differ by 13 %
    assert_eq!(format!("{:.3}", unbiased_over_biased(4)), "0.866");
    assert_eq!(format!("{:.3}", unbiased_over_biased(512)), "0.999");
    assert_eq!(format!("{:.0}", 100.0 * (1.0 - unbiased_over_biased(4))), "13");
    // the table's inputs: mean 2.5, biased variance 1.25, unbiased 5/3
    let x = [1.0f64, 2.0, 3.0, 4.0];
    let mean = x.iter().sum::<f64>() / 4.0;
    let squares: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    assert_eq!((mean, squares / 4.0, squares / 3.0), (2.5, 1.25, 5.0 / 3.0));
}

#[test]
fn worked_example_dropout_only_in_training() {
    let dev = seeded_device(0);
    let ones: Tensor<Rank1<10_000>, f32, Dev> = dev.ones();
    assert_eq!(dropout(ones.clone(), 0.25, Mode::Eval).as_vec(), ones.as_vec());
    let dropped = dropout(ones, 0.25, Mode::Train).as_vec();
    let zeros = dropped.iter().filter(|&&x| x == 0.0).count();
    assert!((2_300..=2_700).contains(&zeros), "{zeros} of 10000 zeroed with p = 0.25");
    // survivors are scaled by 1 / (1 - p) so the expected value stays 1: 4/3, to 1e-6
    assert!(dropped.iter().all(|&x| x == 0.0 || (x - 4.0 / 3.0).abs() < 1e-6));
}

#[test]
#[should_panic(expected = "dropout probability must be in [0, 1)")]
fn dropout_of_one_is_an_error() {
    let dev = Dev::default();
    let _ = dropout(dev.tensor([1.0f32, 2.0]), 1.0, Mode::Train);
}

#[test]
fn set_dropout_reaches_every_probability_of_the_model() {
    let dev = seeded_device(0);
    let mut model = Seq2Seq::<13, 13, 16, 4, 4, 32, 2, PostNorm, f32, Dev>::new(&dev);
    model.set_dropout(0.25);
    let mut seen = vec![model.dropout];
    for block in &model.encoder.layers {
        seen.extend([block.dropout, block.ffn.dropout]);
    }
    for block in &model.decoder.layers {
        seen.extend([block.dropout, block.ffn.dropout]);
    }
    // the embedding's, and two in each of the 2 + 2 blocks
    assert_eq!(seen, vec![0.25; 9]);
}

#[test]
#[should_panic(expected = "dropout probability must be in [0, 1), got 1")]
fn set_dropout_of_one_is_an_error() {
    let dev = seeded_device(0);
    TinyEncoderBlock::<PreNorm, Dev>::new(&dev).set_dropout(1.0);
}

#[test]
fn worked_example_encoder_block_2x10x64() {
    let dev = seeded_device(0);
    let x = normal_tensor(&dev, 0, (2, 10, Const::<64>));
    let pre = DemoEncoderBlock::<PreNorm, Dev>::new(&dev);
    let (y, w) = pre.forward(x.clone(), None, Mode::Eval);
    assert_eq!(y.shape().concrete(), [2, 10, 64]);
    assert_eq!(w.shape().concrete(), [2, 8, 10, 10]);
    // evaluation is deterministic
    assert_eq!(y.as_vec(), pre.forward(x.clone(), None, Mode::Eval).0.as_vec());
    // training applies dropout: another draw, another output
    assert_ne!(pre.forward(x.clone(), None, Mode::Train).0.as_vec(), y.as_vec());

    // post-norm ends in a LayerNorm (gamma 1, beta 0): every token has mean 0 and variance 1
    let post = DemoEncoderBlock::<PostNorm, Dev>::new(&dev);
    for (mean, var) in token_stats(&post.forward(x, None, Mode::Eval).0.as_vec(), 64) {
        assert!(mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-3, "mean {mean}, variance {var}");
    }
}

#[test]
fn worked_example_zero_sublayers_make_pre_norm_the_identity() {
    let dev = seeded_device(1);
    let x = normal_tensor(&dev, 1, (1, 3, Const::<16>));
    let mut block = EncoderBlock::<16, 4, 4, 32, PreNorm, f32, Dev>::new(&dev);
    // zero the last projection of each sub-layer: f(x) = 0, so x + f(norm(x)) = x
    block.self_attn.w_o.weight = dev.zeros();
    block.self_attn.w_o.bias = dev.zeros();
    block.ffn.linear2.weight = dev.zeros();
    block.ffn.linear2.bias = dev.zeros();
    assert_eq!(block.forward(x.clone(), None, Mode::Eval).0.as_vec(), x.as_vec());
    // post-norm cannot be the identity: norm(x + 0) = LayerNorm(x)
    let post = EncoderBlock::<16, 4, 4, 32, PostNorm, f32, Dev> {
        self_attn: block.self_attn.clone(),
        ffn: block.ffn.clone(),
        norm1: block.norm1.clone(),
        norm2: block.norm2.clone(),
        dropout: block.dropout,
        placement: std::marker::PhantomData,
    };
    let expected = block.norm2.forward(block.norm1.forward(x.clone())).as_vec();
    assert_close(&post.forward(x, None, Mode::Eval).0.as_vec(), &expected, 1e-6);
}

#[test]
fn worked_example_decoder_block_2x8_over_2x10() {
    let dev = seeded_device(2);
    let tgt = normal_tensor(&dev, 2, (2, 8, Const::<64>));
    let memory = normal_tensor(&dev, 3, (2, 10, Const::<64>));
    let block = DemoDecoderBlock::<PreNorm, Dev>::new(&dev);
    let causal = broadcast_mask(causal_allowed(&dev, 8), 2, Const::<8>);
    let (y, w) = block.forward(tgt, &memory, Some(&causal), None, Mode::Eval);
    assert_eq!(y.shape().concrete(), [2, 8, 64]);
    assert_eq!(w.self_attn.shape().concrete(), [2, 8, 8, 8]);
    assert_eq!(w.cross_attn.shape().concrete(), [2, 8, 8, 10]);
    let self_w = w.self_attn.as_vec();
    for (row, weights) in self_w.chunks(8).enumerate() {
        let query = row % 8;
        // causal: nothing after the query's own position, and the rest sums to 1
        assert!(weights[query + 1..].iter().all(|&x| x == 0.0), "query {query}: {weights:?}");
        assert!((weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        if query == 0 {
            assert_eq!(weights[0], 1.0, "the first token can only attend to itself");
        }
    }
    // cross-attention sees every encoder position
    assert!(w.cross_attn.as_vec().iter().all(|&x| x > 0.0));
}

fn ids(dev: &Dev, seed: u64, batch: usize, len: usize) -> Tensor<(usize, usize), usize, Dev> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    dev.tensor_from_vec((0..batch * len).map(|_| rng.gen_range(0..1000)).collect(), (batch, len))
}

#[test]
fn worked_example_seq2seq_logits_2x12x1000() {
    let dev = seeded_device(3);
    let model = DemoSeq2Seq::new(&dev);
    let (src, tgt) = (ids(&dev, 10, 2, 15), ids(&dev, 11, 2, 12));
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let masks = || Seq2SeqMasks { tgt: Some(&causal), ..Default::default() };
    let logits = model.try_forward(src.clone(), tgt.clone(), masks(), Mode::Eval).unwrap();
    assert_eq!(logits.shape().concrete(), [2, 12, 1000]);
    let values = logits.as_vec();
    assert!(values.iter().all(|x| x.is_finite()));

    // the source matters (through cross-attention): change one source token, every logit moves
    let mut other = src.as_vec();
    other[3] = (other[3] + 1) % 1000;
    let changed = model
        .try_forward(dev.tensor_from_vec(other, (2, 15)), tgt, masks(), Mode::Eval)
        .unwrap()
        .as_vec();
    let moved = values[..12 * 1000].iter().zip(&changed).filter(|(a, b)| a != b).count();
    assert_eq!(moved, 12 * 1000, "sequence 0's logits should all depend on its source");
    assert_eq!(
        values[12 * 1000..],
        changed[12 * 1000..],
        "sequence 1 does not see sequence 0's source"
    );
}

#[test]
fn worked_example_nn_transformer_output_2x12x64() {
    let dev = seeded_device(4);
    let model = DemoTransformer::new(&dev);
    let src = normal_tensor(&dev, 20, (2, 15, Const::<64>));
    let tgt = normal_tensor(&dev, 21, (2, 12, Const::<64>));
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let out = model.forward(
        src,
        tgt,
        Seq2SeqMasks { tgt: Some(&causal), ..Default::default() },
        Mode::Eval,
    );
    assert_eq!(out.shape().concrete(), [2, 12, 64]);
    // the final decoder norm: every output token has mean 0 and variance 1
    for (mean, var) in token_stats(&out.as_vec(), 64) {
        assert!(mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-3, "mean {mean}, variance {var}");
    }
}

#[test]
fn too_long_or_unknown_tokens_are_errors() {
    let dev = seeded_device(5);
    let mut model = Seq2Seq::<10, 12, 8, 2, 4, 16, 1, PreNorm, f32, Dev>::new(&dev);
    model.max_len = 6;
    let ok = dev.tensor_from_vec(vec![1usize, 2, 3], (1, 3));
    let long = dev.tensor_from_vec(vec![1usize; 7], (1, 7));
    let unknown = dev.tensor_from_vec(vec![1usize, 10, 3], (1, 3));
    let run = |src: &Tensor<(usize, usize), usize, Dev>,
               tgt: &Tensor<(usize, usize), usize, Dev>| {
        model
            .try_forward(src.clone(), tgt.clone(), Default::default(), Mode::Eval)
            .map(|t| t.shape().concrete())
    };
    assert_eq!(run(&ok, &ok), Ok([1, 3, 12]));
    let too_long = EmbedError::TooLong(SequenceTooLong { len: 7, max_len: 6 });
    assert_eq!(run(&long, &ok), Err(too_long));
    assert_eq!(run(&ok, &long), Err(too_long));
    let unknown_id = EmbedError::OutOfVocab(TokenOutOfVocab { token: 10, vocab: 10 });
    assert_eq!(run(&unknown, &ok), Err(unknown_id));
    assert_eq!(unknown_id.to_string(), "token id 10 is outside the vocabulary of 10 ids (0..10)");
    // the target vocabulary is 12: id 10 is fine there
    assert_eq!(run(&ok, &unknown), Ok([1, 3, 12]));
}

#[test]
fn gradients_reach_every_part_of_the_model() {
    let dev = seeded_device(6);
    let model = Seq2Seq::<20, 20, 16, 4, 4, 32, 2, PreNorm, f32, Dev>::new(&dev);
    let src = dev.tensor_from_vec((0..10).map(|i| i % 20).collect::<Vec<usize>>(), (2, 5));
    let tgt = dev.tensor_from_vec((0..8).map(|i| (3 * i) % 20).collect::<Vec<usize>>(), (2, 4));
    let tape = || OwnedTape::<f32, Dev>::default();
    let logits = model
        .try_forward(src.put_tape(tape()), tgt.put_tape(tape()), Default::default(), Mode::Train)
        .unwrap();
    let grads = logits.square().mean::<Rank0, _>().backward();
    let norm = |t: &Tensor<(Const<16>, Const<16>), f32, Dev>| {
        grads.get(t).as_vec().iter().map(|g| g.abs()).sum::<f32>()
    };
    // the encoder learns only through the decoder's cross-attention over its output
    assert!(
        norm(&model.encoder.layers[0].self_attn.w_q.weight) > 0.0,
        "no gradient reached the encoder"
    );
    assert!(norm(&model.decoder.layers[1].cross_attn.w_k.weight) > 0.0);
    assert!(norm(&model.decoder.layers[0].self_attn.w_v.weight) > 0.0);
    assert!(grads.get(&model.src_embed.weight).as_vec().iter().any(|&g| g != 0.0));
    assert!(grads.get(&model.out.weight).as_vec().iter().any(|&g| g != 0.0));
}

#[test]
fn worked_example_depth_twelve_blocks() {
    use ch05_blocks::figures::stream_std;
    // post-norm hands on a normalised stream after every block: 1.00 each time
    let post = stream_std::<PostNorm>(12);
    assert!(post.iter().all(|s| format!("{s:.2}") == "1.00"), "{post:?}");
    // pre-norm adds to a stream that is never normalised: 1.10 after the first block, 1.84
    // after the twelfth
    let pre = stream_std::<PreNorm>(12);
    let printed = |i: usize| format!("{:.2}", pre[i]);
    assert_eq!((printed(0), printed(11)), ("1.10".into(), "1.84".into()), "{pre:?}");
    // it grows after every block but one: block 10 leaves it at 1.66, below block 9's 1.75
    assert_eq!((printed(8), printed(9)), ("1.75".into(), "1.66".into()), "{pre:?}");
    for i in 1..12 {
        assert_eq!(pre[i] > pre[i - 1], i != 9, "block {}: {pre:?}", i + 1);
    }
}
