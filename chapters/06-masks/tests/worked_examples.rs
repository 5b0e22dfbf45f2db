//! Every number chapter 6 shows: the masks, exactly, and what attention does with them.

use ch01_attention::{broadcast_mask, scaled_dot_product_attention};
use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::{DecoderBlock, Mode, PostNorm, PreNorm, Seq2Seq};
use ch06_masks::figures::masked_weights_values;
use ch06_masks::{
    additive, attention_additive, causal_allowed, causal_blocked, decoder_self_mask, encoder_mask,
    format01, fully_masked_rows, key_mask, memory_mask, padding_blocked, real_tokens_allowed,
    rows01, rows01_of, square_subsequent_mask, Blocked, MaskSet, PAD, SEQUENCES, TARGETS,
};
use dfdx::prelude::*;
use support::{assert_close, format_tensor, normal_tensor, seeded_device, Dev};

fn flat(rows: &[Vec<u8>]) -> Vec<u8> {
    rows.concat()
}

#[test]
fn worked_example_causal_mask_5() {
    let dev = Dev::default();
    // nn.MultiheadAttention's polarity: true = blocked, torch.triu(ones(5, 5), diagonal=1)
    let blocked = causal_blocked(&dev, 5);
    assert_eq!(
        blocked.rows01(),
        vec![
            vec![0, 1, 1, 1, 1],
            vec![0, 0, 1, 1, 1],
            vec![0, 0, 0, 1, 1],
            vec![0, 0, 0, 0, 1],
            vec![0, 0, 0, 0, 0]
        ]
    );
    assert_eq!(
        format01(&blocked.rows01()),
        "[[0, 1, 1, 1, 1],\n [0, 0, 1, 1, 1],\n [0, 0, 0, 1, 1],\n [0, 0, 0, 0, 1],\n [0, 0, 0, 0, 0]]"
    );
    // the book's convention: true = may attend, torch.tril(ones(5, 5)), the exact complement
    let allowed = causal_allowed(&dev, 5);
    assert_eq!(
        rows01(&allowed),
        vec![
            vec![1, 0, 0, 0, 0],
            vec![1, 1, 0, 0, 0],
            vec![1, 1, 1, 0, 0],
            vec![1, 1, 1, 1, 0],
            vec![1, 1, 1, 1, 1]
        ]
    );
    assert_eq!(rows01(&blocked.clone().to_allowed()), rows01(&allowed));
    assert_eq!(Blocked::from_allowed(allowed).rows01(), blocked.rows01());
}

#[test]
fn worked_example_square_subsequent_mask() {
    let dev = Dev::default();
    let mask = square_subsequent_mask(&dev, 5);
    let inf = f32::NEG_INFINITY;
    #[rustfmt::skip]
    let expected = [
        0.0, inf, inf, inf, inf,
        0.0, 0.0, inf, inf, inf,
        0.0, 0.0, 0.0, inf, inf,
        0.0, 0.0, 0.0, 0.0, inf,
        0.0, 0.0, 0.0, 0.0, 0.0,
    ];
    assert_eq!(mask.as_vec(), expected);
    assert_eq!(
        format_tensor(&mask, 1),
        "[[ 0.0, -inf, -inf, -inf, -inf],\n [ 0.0,  0.0, -inf, -inf, -inf],\n [ 0.0,  0.0,  0.0, -inf, -inf],\n \
         [ 0.0,  0.0,  0.0,  0.0, -inf],\n [ 0.0,  0.0,  0.0,  0.0,  0.0]]"
    );
    // the same as the additive form of any "may attend" mask
    assert_eq!(additive(causal_allowed(&dev, 5)).as_vec(), expected);
}

#[test]
fn worked_example_padding_mask() {
    let dev = Dev::default();
    let pad = padding_blocked(&dev, &SEQUENCES, PAD); // sequences == pad_idx
    assert_eq!(pad.tensor().shape().concrete(), [3, 6]);
    assert_eq!(
        pad.rows01(),
        vec![vec![0, 0, 0, 0, 1, 1], vec![0, 0, 0, 0, 0, 0], vec![0, 0, 1, 1, 1, 1]]
    );
    let real = real_tokens_allowed(&dev, &SEQUENCES, PAD); // true = may attend
    assert_eq!(
        rows01(&real),
        vec![vec![1, 1, 1, 1, 0, 0], vec![1, 1, 1, 1, 1, 1], vec![1, 1, 0, 0, 0, 0]]
    );
    assert_eq!(rows01(&pad.to_allowed()), rows01(&real));
    // the same from Vec, array and slice inputs
    let as_vecs: Vec<Vec<usize>> = SEQUENCES.iter().map(|s| s.to_vec()).collect();
    let as_slices: Vec<&[usize]> = SEQUENCES.iter().map(|s| &s[..]).collect();
    assert_eq!(rows01(&real_tokens_allowed(&dev, &as_vecs, PAD)), rows01(&real));
    assert_eq!(rows01(&real_tokens_allowed(&dev, &as_slices, PAD)), rows01(&real));
}

#[test]
fn worked_example_padding_in_attention() {
    let dev = seeded_device(0);
    let mha = MultiHeadAttention::<32, 4, 8, f32, _>::new(&dev);
    let x = normal_tensor(&dev, 0, (3, 6, Const::<32>));
    let mask = encoder_mask(&dev, &SEQUENCES, PAD, Const::<4>);
    assert_eq!(mask.shape().concrete(), [3, 4, 6, 6]);
    let (output, weights) = mha.self_attention(x, Some(&mask));
    assert_eq!(output.shape().concrete(), [3, 6, 32]);
    assert!(output.as_vec().iter().all(|v| v.is_finite()));
    let w = weights.as_vec();
    for (i, &v) in w.iter().enumerate() {
        let (b, key) = (i / (4 * 36), i % 6);
        if SEQUENCES[b][key] == PAD {
            assert_eq!(v, 0.0, "weight {i} on a PAD key"); // exactly, not "near zero"
        } else {
            assert!(v > 0.0, "weight {i} on a real key");
        }
    }
    for row in w.chunks(6) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}

#[test]
fn worked_example_combined_decoder_mask() {
    let dev = Dev::default();
    // the two parts, with the shapes PyTorch's decoder layer takes them in
    assert_eq!(causal_blocked(&dev, 6).tensor().shape().concrete(), [6, 6]);
    assert_eq!(padding_blocked(&dev, &TARGETS, PAD).tensor().shape().concrete(), [2, 6]);
    // combined and broadcast over 4 heads: (2, 4, 6, 6), 1 = may attend
    let mask = decoder_self_mask(&dev, &TARGETS, PAD, Const::<4>);
    assert_eq!(mask.shape().concrete(), [2, 4, 6, 6]);
    #[rustfmt::skip]
    let first: [u8; 36] = [
        1, 0, 0, 0, 0, 0,
        1, 1, 0, 0, 0, 0,
        1, 1, 1, 0, 0, 0,
        1, 1, 1, 1, 0, 0,
        1, 1, 1, 1, 0, 0, // the PAD queries still see the real tokens before them
        1, 1, 1, 1, 0, 0,
    ];
    #[rustfmt::skip]
    let second: [u8; 36] = [
        1, 0, 0, 0, 0, 0,
        1, 1, 0, 0, 0, 0,
        1, 1, 1, 0, 0, 0,
        1, 1, 1, 1, 0, 0,
        1, 1, 1, 1, 1, 0,
        1, 1, 1, 1, 1, 1, // no padding: the plain causal mask
    ];
    for head in 0..4 {
        assert_eq!(flat(&rows01_of(&mask, 0, head)), first, "sequence 0, head {head}");
        assert_eq!(flat(&rows01_of(&mask, 1, head)), second, "sequence 1, head {head}");
    }
    // the whole tensor, in memory order: every head of a sequence is the same matrix
    let all: Vec<u8> = mask.as_vec().into_iter().map(u8::from).collect();
    let expected: Vec<u8> = [first; 4].concat().into_iter().chain([second; 4].concat()).collect();
    assert_eq!(all, expected);
    assert!(fully_masked_rows(&mask).is_empty());
}

#[test]
fn worked_example_masked_weights() {
    // the figure's numbers: zero above the diagonal and in the PAD columns, rows sum to 1
    let w = masked_weights_values();
    assert_eq!(w.len(), 36);
    for (i, row) in w.chunks(6).enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if j > i || j >= 4 {
                assert_eq!(v, 0.0, "({i}, {j})");
            } else {
                assert!(v > 0.0, "({i}, {j})");
            }
        }
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
    assert_eq!(w[0], 1.0); // the first token can only look at itself
                           // the two PAD queries see the same four keys through the same key vectors: only their
                           // own query vectors differ, so their rows differ
    assert!(support::max_abs_diff(&w[24..30], &w[30..36]) > 1e-3);
}

#[test]
fn worked_example_decoder_layer_with_masks() {
    let dev = seeded_device(0);
    let layer = DecoderBlock::<32, 4, 8, 128, PostNorm, f32, _>::new(&dev);
    let tgt_emb = normal_tensor(&dev, 1, (2, 6, Const::<32>));
    let memory = normal_tensor(&dev, 2, (2, 10, Const::<32>));
    let mask = decoder_self_mask(&dev, &TARGETS, PAD, Const::<4>);
    let (output, w) = layer.forward(tgt_emb, &memory, Some(&mask), None, Mode::Eval);
    assert_eq!(output.shape().concrete(), [2, 6, 32]);
    assert_eq!(w.cross_attn.shape().concrete(), [2, 4, 6, 10]);
    // every blocked pair has weight exactly 0, every allowed pair a positive one
    for (i, (&allowed, &weight)) in mask.as_vec().iter().zip(&w.self_attn.as_vec()).enumerate() {
        assert_eq!(allowed, weight > 0.0, "pair {i}: allowed {allowed}, weight {weight}");
    }
}

#[test]
fn worked_example_broadcast_axes() {
    let dev = Dev::default();
    let real = real_tokens_allowed(&dev, &SEQUENCES[2..], PAD); // [11, 3, PAD, PAD, PAD, PAD]
    let right = key_mask(real.clone(), Const::<1>, 6);
    let wrong = real.broadcast_like::<_, Axes2<1, 3>>(&(1, Const::<1>, 6, 6));
    assert_eq!(rows01_of(&right, 0, 0), vec![vec![1, 1, 0, 0, 0, 0]; 6]);
    let mut expected_wrong = vec![vec![1u8; 6]; 2];
    expected_wrong.extend(vec![vec![0u8; 6]; 4]);
    assert_eq!(rows01_of(&wrong, 0, 0), expected_wrong);
    // the wrong one lets the real tokens read the padding, and leaves the PAD queries nothing
    assert_eq!(fully_masked_rows(&wrong), vec![[0, 0, 2], [0, 0, 3], [0, 0, 4], [0, 0, 5]]);
    assert!(fully_masked_rows(&right).is_empty());
}

#[test]
fn worked_example_additive_equals_boolean() {
    let dev = Dev::default();
    let shape = (2, Const::<3>, 5, Const::<4>);
    let q = normal_tensor(&dev, 1, shape);
    let k = normal_tensor(&dev, 2, shape);
    let v = normal_tensor(&dev, 3, shape);
    let allowed = broadcast_mask(causal_allowed(&dev, 5), 2, Const::<3>);
    let (out_bool, w_bool) =
        scaled_dot_product_attention(q.clone(), k.clone(), v.clone(), Some(&allowed));
    let (out_add, w_add) = attention_additive(q, k, v, &additive(allowed));
    assert_close(&w_add.as_vec(), &w_bool.as_vec(), 1e-6);
    assert_close(&out_add.as_vec(), &out_bool.as_vec(), 1e-6);
    // blocked keys get exactly zero weight either way
    for (i, (&a, &b)) in w_add.as_vec().iter().zip(&w_bool.as_vec()).enumerate() {
        let (query, key) = ((i / 5) % 5, i % 5);
        if key > query {
            assert_eq!((a, b), (0.0, 0.0), "weight {i}");
        }
    }
}

#[test]
fn worked_example_fully_masked_rows() {
    let dev = Dev::default();
    let left_padded = [[PAD, PAD, 4, 6, 9, 1]];
    let mask = decoder_self_mask(&dev, &left_padded, PAD, Const::<1>);
    #[rustfmt::skip]
    let expected: Vec<Vec<u8>> = vec![
        vec![0, 0, 0, 0, 0, 0],
        vec![0, 0, 0, 0, 0, 0],
        vec![0, 0, 1, 0, 0, 0],
        vec![0, 0, 1, 1, 0, 0],
        vec![0, 0, 1, 1, 1, 0],
        vec![0, 0, 1, 1, 1, 1],
    ];
    assert_eq!(rows01_of(&mask, 0, 0), expected);
    assert_eq!(fully_masked_rows(&mask), vec![[0, 0, 0], [0, 0, 1]]);

    let shape = (1, Const::<1>, 6, Const::<4>);
    let q = normal_tensor(&dev, 3, shape);
    let k = normal_tensor(&dev, 4, shape);
    // -1e9 fill: the two empty rows are uniform, 1/6 each (the printed 0.1667)
    let (out, w) = scaled_dot_product_attention(q.clone(), k.clone(), k.clone(), Some(&mask));
    let w = w.as_vec();
    assert_close(&w[..12], &[1.0 / 6.0; 12], 1e-7);
    assert_eq!(format!("{:.4}", w[0]), "0.1667");
    assert!(out.as_vec().iter().all(|v| v.is_finite()));
    // the other rows are exactly what they would be without the empty rows: weight 0 on PAD keys
    assert_eq!(w[2 * 6 + 2], 1.0);
    for row in 2..6 {
        assert_eq!(w[row * 6..row * 6 + 2], [0.0, 0.0], "row {row}");
    }
    // an additive -inf mask turns the same two rows into NaN, and only those (chapter 1)
    let (_, w_inf) = attention_additive(q, k.clone(), k, &additive(mask));
    let w_inf = w_inf.as_vec();
    assert!(w_inf[..12].iter().all(|x| x.is_nan()));
    assert_close(&w_inf[12..], &w[12..], 1e-6);
}

#[test]
fn worked_example_mask_set() {
    let dev = seeded_device(0);
    let (src, tgt) = (&SEQUENCES[..2], &TARGETS[..]);
    let masks = MaskSet::<4, _>::new(&dev, src, tgt, PAD);
    assert_eq!(masks.src.shape().concrete(), [2, 4, 6, 6]);
    assert_eq!(masks.tgt.shape().concrete(), [2, 4, 6, 6]);
    assert_eq!(masks.memory.shape().concrete(), [2, 4, 6, 6]);
    assert_eq!(masks.src.as_vec(), encoder_mask(&dev, src, PAD, Const::<4>).as_vec());
    assert_eq!(masks.tgt.as_vec(), decoder_self_mask(&dev, tgt, PAD, Const::<4>).as_vec());
    assert_eq!(masks.memory.as_vec(), memory_mask(&dev, src, PAD, Const::<4>, 6).as_vec());
    // source 0 is [5, 12, 8, 3, PAD, PAD]: every target position sees its first four tokens
    assert_eq!(rows01_of(&masks.memory, 0, 3), vec![vec![1, 1, 1, 1, 0, 0]; 6]);
    // and chapter 5's model takes them as they are
    let model = Seq2Seq::<13, 10, 16, 4, 4, 32, 1, PreNorm, f32, _>::new(&dev);
    let src_ids = dev.tensor_from_vec(src.concat(), (2, 6));
    let tgt_ids = dev.tensor_from_vec(tgt.concat(), (2, 6));
    let logits = model.try_forward(src_ids, tgt_ids, masks.as_seq2seq(), Mode::Eval).unwrap();
    assert_eq!(logits.shape().concrete(), [2, 6, 10]);
    assert!(logits.as_vec().iter().all(|v| v.is_finite()));
}

// ---------------------------------------------------------------------------------------------
// Bad input is refused with a message that says what to change.

#[test]
#[should_panic(
    expected = "sequence 1 has 2 tokens, sequence 0 has 3; pad every sequence to one length first"
)]
fn ragged_sequences_are_refused() {
    let dev = Dev::default();
    let _ = real_tokens_allowed(&dev, &[vec![1, 2, 3], vec![4, 0]], PAD);
}

#[test]
#[should_panic(expected = "the batch is empty")]
fn an_empty_batch_is_refused() {
    let dev = Dev::default();
    let empty: [[usize; 3]; 0] = [];
    let _ = padding_blocked(&dev, &empty, PAD);
}

#[test]
#[should_panic(expected = "the sequences are empty")]
fn empty_sequences_are_refused() {
    let dev = Dev::default();
    let _ = decoder_self_mask(&dev, &[Vec::<usize>::new()], PAD, Const::<2>);
}

#[test]
#[should_panic(expected = "a sequence of length 0 has nothing to mask")]
fn a_causal_mask_of_length_zero_is_refused() {
    let dev = Dev::default();
    let _ = causal_blocked(&dev, 0);
}

#[test]
#[should_panic(expected = "2 source sequences but 1 target sequences")]
fn sources_and_targets_must_pair_up() {
    let dev = Dev::default();
    let _ = MaskSet::<2, _>::new(&dev, &SEQUENCES[..2], &TARGETS[..1], PAD);
}

#[test]
#[should_panic(expected = "(batch 2, head 0) is outside a mask of 2 sequences and 4 heads")]
fn rows01_of_checks_its_indices() {
    let dev = Dev::default();
    let _ = rows01_of(&decoder_self_mask(&dev, &TARGETS, PAD, Const::<4>), 2, 0);
}
