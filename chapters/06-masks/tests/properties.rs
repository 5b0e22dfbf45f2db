//! What the masks guarantee, checked through whole chapter 5 stacks on random inputs.
//!
//! A mask is a promise about where information may flow. Between two masked attentions a stack
//! has residual connections, layer norms, feed-forward networks and cross-attention, so the promise
//! is checked on the stack's outputs, not on one attention call.

use ch01_attention::{broadcast_mask, scaled_dot_product_attention};
use ch05_blocks::{Mode, Placement, PostNorm, PreNorm, Seq2Seq, TinyDecoder, TinyEncoder};
use ch06_masks::{
    additive, attention_additive, causal_allowed, causal_blocked, decoder_self_mask, encoder_mask,
    fully_masked_rows, memory_mask, padding_blocked, real_tokens_allowed, rows01, Blocked, MaskSet,
    PAD,
};
use dfdx::prelude::*;
use proptest::prelude::*;
use support::{assert_close, max_abs_diff, normal_tensor, normal_vec, seeded_device, Dev};

/// The width and heads of chapter 5's `Tiny*` presets.
const D: usize = 16;
const H: usize = 4;

/// Row-major `(n, D)` token vectors with the tokens where `replace(token)` holds drawn afresh.
fn replace_tokens(x: &[f32], seed: u64, replace: impl Fn(usize) -> bool) -> Vec<f32> {
    let other = normal_vec(seed ^ 0x5eed, x.len());
    x.iter().enumerate().map(|(i, &v)| if replace(i / D) { other[i] } else { v }).collect()
}

/// Sequences of the given real lengths, right-padded to `len` with PAD (0); real ids are 1..
fn right_padded(lens: &[usize], len: usize, seed: u64) -> Vec<Vec<usize>> {
    lens.iter()
        .enumerate()
        .map(|(b, &l)| {
            (0..len)
                .map(|j| if j < l { 1 + (seed as usize + 3 * b + j) % 9 } else { PAD })
                .collect()
        })
        .collect()
}

/// Through a two-layer decoder over a fixed memory: the outputs at positions `0..=i` do not depend
/// on the target after position `i`, and the later outputs do.
fn causal_holds<P: Placement>(seed: u64, batch: usize, n: usize, m: usize, i: usize) {
    let dev = seeded_device(seed);
    let decoder = TinyDecoder::<2, P, Dev>::new(&dev);
    let memory = normal_tensor(&dev, seed + 1, (batch, m, Const::<D>));
    let mask = broadcast_mask(causal_allowed(&dev, n), batch, Const::<H>);
    let run = |rows: Vec<f32>| {
        let x = dev.tensor_from_vec(rows, (batch, n, Const::<D>));
        decoder.forward(x, &memory, Some(&mask), None, Mode::Eval).0.as_vec()
    };
    let x = normal_vec(seed + 2, batch * n * D);
    let later = |token: usize| token % n > i;
    let (y, y_changed) = (run(x.clone()), run(replace_tokens(&x, seed, later)));
    for b in 0..batch {
        let seq = b * n * D;
        assert_close(&y_changed[seq..seq + (i + 1) * D], &y[seq..seq + (i + 1) * D], 1e-6);
        if i + 1 < n {
            // not vacuous: what comes after position i does change
            assert!(
                max_abs_diff(
                    &y_changed[seq + (i + 1) * D..seq + n * D],
                    &y[seq + (i + 1) * D..seq + n * D]
                ) > 1e-4
            );
        }
    }
}

/// Through a two-layer encoder: changing the PAD vectors changes no real position, and every
/// sequence's real outputs are those it has alone, unpadded and unmasked.
fn padding_is_invisible<P: Placement>(seed: u64, lens: &[usize], len: usize) {
    let dev = seeded_device(seed);
    let encoder = TinyEncoder::<2, P, Dev>::new(&dev);
    let batch = lens.len();
    let ids = right_padded(lens, len, seed);
    let mask = encoder_mask(&dev, &ids, PAD, Const::<H>);
    let is_pad = |token: usize| ids[token / len][token % len] == PAD;
    let run = |rows: Vec<f32>| {
        encoder
            .forward(dev.tensor_from_vec(rows, (batch, len, Const::<D>)), Some(&mask), Mode::Eval)
            .0
            .as_vec()
    };
    let x = normal_vec(seed, batch * len * D);
    let (y, y_other) = (run(x.clone()), run(replace_tokens(&x, seed, is_pad)));
    for (b, &l) in lens.iter().enumerate() {
        let seq = b * len * D;
        assert_close(&y_other[seq..seq + l * D], &y[seq..seq + l * D], 1e-6);
        let alone = dev.tensor_from_vec(x[seq..seq + l * D].to_vec(), (1, l, Const::<D>));
        let (alone, _) = encoder.forward(alone, None, Mode::Eval);
        assert_close(&y[seq..seq + l * D], &alone.as_vec(), 1e-5);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn causal_mask_hides_the_future_through_a_decoder_stack(
        seed in 0u64..1_000_000, batch in 1usize..3, n in 2usize..8, m in 1usize..6, i in 0usize..8,
    ) {
        let i = i % n;
        causal_holds::<PreNorm>(seed, batch, n, m, i);
        causal_holds::<PostNorm>(seed, batch, n, m, i);
    }

    /// The same end to end, from token ids to logits: embeddings, positions, encoder, decoder and
    /// output projection, with the three masks of [`MaskSet`].
    #[test]
    fn seq2seq_logits_ignore_later_target_tokens(seed in 0u64..1_000_000, n in 2usize..7, i in 0usize..7, token in 1usize..10) {
        let i = i % n;
        let dev = seeded_device(seed);
        let model = Seq2Seq::<10, 10, D, H, 4, 32, 2, PreNorm, f32, Dev>::new(&dev);
        let src = [[3, 1, 4, 1, 5]];
        let tgt: Vec<usize> = (0..n).map(|j| 1 + (seed as usize + j) % 9).collect();
        let mut changed = tgt.clone();
        for t in changed.iter_mut().skip(i + 1) {
            *t = token; // any real token, PAD-free so the padding mask does not change
        }
        let logits = |tgt: &[usize]| {
            let masks = MaskSet::<H, _>::new(&dev, &src, &[tgt], PAD);
            let src_ids = dev.tensor_from_vec(src.concat(), (1, 5));
            let tgt_ids = dev.tensor_from_vec(tgt.to_vec(), (1, n));
            model.try_forward(src_ids, tgt_ids, masks.as_seq2seq(), Mode::Eval).unwrap().as_vec()
        };
        let (a, b) = (logits(&tgt), logits(&changed));
        assert_close(&b[..(i + 1) * 10], &a[..(i + 1) * 10], 1e-5);
    }

    #[test]
    fn padding_never_reaches_real_positions(seed in 0u64..1_000_000, lens in proptest::collection::vec(1usize..7, 1..4)) {
        padding_is_invisible::<PreNorm>(seed, &lens, 6);
        padding_is_invisible::<PostNorm>(seed, &lens, 6);
    }

    /// In a decoder both kinds of padding are hidden: the target's (self-attention) and the
    /// source's (cross-attention).
    #[test]
    fn decoder_ignores_target_and_source_padding(
        seed in 0u64..1_000_000, tgt_lens in proptest::collection::vec(1usize..6, 2), src_lens in proptest::collection::vec(1usize..5, 2),
    ) {
        let (n, m) = (5, 4);
        let dev = seeded_device(seed);
        let decoder = TinyDecoder::<2, PostNorm, Dev>::new(&dev);
        let (tgt_ids, src_ids) = (right_padded(&tgt_lens, n, seed), right_padded(&src_lens, m, seed + 1));
        let self_mask = decoder_self_mask(&dev, &tgt_ids, PAD, Const::<H>);
        let cross_mask = memory_mask(&dev, &src_ids, PAD, Const::<H>, n);
        let run = |x: Vec<f32>, memory: Vec<f32>| {
            let memory = dev.tensor_from_vec(memory, (2, m, Const::<D>));
            let x = dev.tensor_from_vec(x, (2, n, Const::<D>));
            decoder.forward(x, &memory, Some(&self_mask), Some(&cross_mask), Mode::Eval).0.as_vec()
        };
        let (x, memory) = (normal_vec(seed, 2 * n * D), normal_vec(seed + 2, 2 * m * D));
        let x_other = replace_tokens(&x, seed, |t| tgt_ids[t / n][t % n] == PAD);
        let memory_other = replace_tokens(&memory, seed + 3, |t| src_ids[t / m][t % m] == PAD);
        let (y, y_other) = (run(x, memory), run(x_other, memory_other));
        for (b, &l) in tgt_lens.iter().enumerate() {
            let seq = b * n * D;
            assert_close(&y_other[seq..seq + l * D], &y[seq..seq + l * D], 1e-6);
        }
    }

    /// A batch with an all-PAD target and a left-padded one: their fully masked rows get uniform
    /// weights (the -1e9 fill), nothing is NaN, and the real positions of the other sequences are
    /// exactly what they are without the padding.
    #[test]
    fn fully_padded_rows_do_not_leak(seed in 0u64..1_000_000, real_len in 1usize..6, lead in 1usize..4) {
        let len = 5;
        let dev = seeded_device(seed);
        let decoder = TinyDecoder::<2, PreNorm, Dev>::new(&dev);
        let right: Vec<usize> = (0..len).map(|j| if j < real_len { 1 + j } else { PAD }).collect();
        let left: Vec<usize> = (0..len).map(|j| if j < lead { PAD } else { 1 + j }).collect();
        let ids = vec![right, vec![PAD; len], left];
        let mask = decoder_self_mask(&dev, &ids, PAD, Const::<H>);
        // the all-PAD sequence has no row to spare; the left-padded one loses its first `lead` rows
        let empty = fully_masked_rows(&mask);
        prop_assert_eq!(empty.len(), H * len + H * lead);
        let memory = normal_vec(seed + 3, 3 * 3 * D);
        let x = normal_vec(seed, 3 * len * D);
        let (y, w) = decoder.forward(
            dev.tensor_from_vec(x.clone(), (3, len, Const::<D>)),
            &dev.tensor_from_vec(memory.clone(), (3, 3, Const::<D>)),
            Some(&mask),
            None,
            Mode::Eval,
        );
        let y = y.as_vec();
        prop_assert!(y.iter().all(|v| v.is_finite()), "NaN or inf in the output");
        // every empty row is uniform over all keys, in every layer
        for layer in &w {
            let w = layer.self_attn.as_vec();
            for [b, h, q] in &empty {
                let row = &w[((b * H + h) * len + q) * len..][..len];
                prop_assert!(row.iter().all(|&v| (v - 1.0 / len as f32).abs() < 1e-6), "row {:?}: {:?}", [b, h, q], row);
            }
        }
        // the real positions of sequences 0 and 2, compared with each run alone and unpadded
        for (b, (from, to)) in [(0, (0, real_len)), (2, (lead, len))] {
            let seq = b * len;
            let tokens = x[(seq + from) * D..(seq + to) * D].to_vec();
            let alone_len = to - from;
            let alone_memory = dev.tensor_from_vec(memory[b * 3 * D..(b + 1) * 3 * D].to_vec(), (1, 3, Const::<D>));
            let alone_mask = broadcast_mask(causal_allowed(&dev, alone_len), 1, Const::<H>);
            let (alone, _) = decoder.forward(dev.tensor_from_vec(tokens, (1, alone_len, Const::<D>)), &alone_memory, Some(&alone_mask), None, Mode::Eval);
            assert_close(&y[(seq + from) * D..(seq + to) * D], &alone.as_vec(), 1e-5);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Adding a 0 / -inf mask and choosing -1e9 for blocked scores agree whenever every query has
    /// at least one key to look at.
    #[test]
    fn additive_and_boolean_masks_agree(seed in 0u64..1_000_000, sq in 1usize..6, sk in 1usize..6, bits in any::<u64>()) {
        let dev = Dev::default();
        // a random mask with key 0 always allowed, so no row is empty
        let flags: Vec<bool> = (0..sq * sk).map(|i| i % sk == 0 || (bits >> (i % 64)) & 1 == 1).collect();
        let mask = broadcast_mask(dev.tensor_from_vec(flags, (sq, sk)), 1, Const::<2>);
        let q = normal_tensor(&dev, seed, (1, Const::<2>, sq, Const::<4>));
        let k = normal_tensor(&dev, seed + 1, (1, Const::<2>, sk, Const::<4>));
        let v = normal_tensor(&dev, seed + 2, (1, Const::<2>, sk, Const::<3>));
        let (out_bool, w_bool) = scaled_dot_product_attention(q.clone(), k.clone(), v.clone(), Some(&mask));
        let (out_add, w_add) = attention_additive(q, k, v, &additive(mask.clone()));
        assert_close(&w_add.as_vec(), &w_bool.as_vec(), 1e-6);
        assert_close(&out_add.as_vec(), &out_bool.as_vec(), 1e-5);
        for ((&allowed, &a), &b) in mask.as_vec().iter().zip(&w_add.as_vec()).zip(&w_bool.as_vec()) {
            if !allowed {
                prop_assert_eq!((a, b), (0.0, 0.0));
            }
        }
    }

    /// The two conventions are each other's complement, and converting twice changes nothing.
    #[test]
    fn conventions_are_complements(n in 1usize..40, ids in proptest::collection::vec(proptest::collection::vec(0usize..4, 7), 1..5)) {
        let dev = Dev::default();
        let blocked = causal_blocked(&dev, n);
        let allowed = causal_allowed(&dev, n);
        prop_assert_eq!(rows01(&blocked.clone().to_allowed()), rows01(&allowed));
        prop_assert_eq!(Blocked::from_allowed(allowed).rows01(), blocked.rows01());
        for (i, row) in blocked.rows01().iter().enumerate() {
            for (j, &b) in row.iter().enumerate() {
                prop_assert_eq!(b == 1, j > i);
            }
        }
        let pad = padding_blocked(&dev, &ids, PAD);
        let real = real_tokens_allowed(&dev, &ids, PAD);
        for ((p, r), seq) in pad.rows01().iter().zip(rows01(&real)).zip(&ids) {
            for ((&p, &r), &t) in p.iter().zip(&r).zip(seq) {
                prop_assert_eq!((p == 1, r == 1), (t == PAD, t != PAD));
            }
        }
    }
}
