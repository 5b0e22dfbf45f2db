//! The KV cache: cached generation equals recomputing everything, and the rolling buffer equals
//! chapter 8's sliding window.

use ch08_efficient::heads::Heads;
use ch08_efficient::pattern::SlidingWindow;
use ch10_language_models::llama::config::MISTRAL_7B_V01;
use ch10_language_models::llama::mask::{may_attend, positions_allowed};
use ch10_language_models::{
    generate, CausalLm, GroupedQueryAttention, LayerCache, Recompute, Rope, RopeLayout, Sampling,
    Window,
};
use dfdx::nn::BuildModule;
use dfdx::prelude::*;
use proptest::prelude::*;

use crate::common::{ids_tensor, seeded_ids, seeded_model};

type Dev = support::Dev;

/// A small model with `KV_HEADS` key/value heads of 8 (`KV_WIDTH = KV_HEADS * 8` wide) under 4
/// query heads.
type Small<const KV_HEADS: usize, const KV_WIDTH: usize> =
    CausalLm<40, 32, 4, KV_HEADS, 8, KV_WIDTH, 48, 2, f32, Dev>;

/// The prompt in one cached call, then `steps` single tokens: the logits of every position
/// equal those of one uncached pass over the whole sequence.
fn cached_equals_full<const KV_HEADS: usize, const KV_WIDTH: usize>(
    seed: u64,
    prompt: usize,
    steps: usize,
    layout: RopeLayout,
) {
    let mut model = seeded_model::<Small<KV_HEADS, KV_WIDTH>>(seed);
    model.rope = Rope::new(10_000.0, layout);
    let dev = model.lm_head.weight.device().clone();
    let ids = seeded_ids(seed, prompt + steps, 40);
    let full = model.forward(ids_tensor(&dev, &ids)).logits.as_vec();
    let mut cache = model.new_cache();
    let mut cached =
        model.forward_cached(ids_tensor(&dev, &ids[..prompt]), &mut cache).logits.as_vec();
    for t in prompt..prompt + steps {
        cached.extend(
            model.forward_cached(ids_tensor(&dev, &ids[t..t + 1]), &mut cache).logits.as_vec(),
        );
    }
    assert_eq!(cache.next_position(), prompt + steps);
    support::assert_close(&cached, &full, 2e-5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    /// Each drawn case runs all six combinations: both RoPE layouts, and 1 (multi-query), 2
    /// (grouped, 2 per group) and 4 (multi-head) key/value heads.
    #[test]
    fn cached_steps_equal_recomputation(
        seed in 0u64..100, prompt in 1usize..12, steps in 1usize..8,
    ) {
        for layout in [RopeLayout::Interleaved, RopeLayout::HalfSplit] {
            cached_equals_full::<1, 8>(seed, prompt, steps, layout);
            cached_equals_full::<2, 16>(seed, prompt, steps, layout);
            cached_equals_full::<4, 32>(seed, prompt, steps, layout);
        }
    }
}

/// The smallest case, once failed and fixed (a one-token prompt and one step, multi-query), in
/// every combination.
#[test]
fn one_token_prompt_and_one_step_equal_recomputation() {
    for layout in [RopeLayout::Interleaved, RopeLayout::HalfSplit] {
        cached_equals_full::<1, 8>(0, 1, 1, layout);
        cached_equals_full::<2, 16>(0, 1, 1, layout);
        cached_equals_full::<4, 32>(0, 1, 1, layout);
    }
}

/// Greedy and seeded sampling pick the same tokens with and without the cache.
#[test]
fn generation_is_the_same_with_and_without_the_cache() {
    let model = seeded_model::<Small<2, 16>>(9);
    let prompt = seeded_ids(9, 5, 40);
    for sampling in
        [Sampling::Greedy, Sampling::Sample { temperature: 0.8, top_k: Some(10), seed: 3 }]
    {
        let full = generate(&model, &prompt, 20, sampling, Recompute::Everything);
        let cached = generate(&model, &prompt, 20, sampling, Recompute::NewTokenOnly);
        assert_eq!(full, cached, "{sampling:?}");
        assert_eq!(full.len(), 20);
    }
}

/// A model with a sliding window generates past its window: through a rolling buffer with the
/// cache, through windowed attention over everything without it, the same tokens.
#[test]
fn windowed_model_generates_the_same_past_its_window() {
    let mut model = seeded_model::<Small<2, 16>>(21);
    model.window = Window(Some(6));
    let prompt = seeded_ids(21, 4, 40);
    let sampling = Sampling::Sample { temperature: 1.0, top_k: None, seed: 5 };
    let full = generate(&model, &prompt, 16, sampling, Recompute::Everything);
    let cached = generate(&model, &prompt, 16, sampling, Recompute::NewTokenOnly);
    assert_eq!(full, cached);
    let mut cache = model.new_cache();
    let dev = model.lm_head.weight.device().clone();
    model.forward_cached(ids_tensor(&dev, &seeded_ids(22, 20, 40)), &mut cache);
    assert_eq!(cache.layers[0].len(), 6, "a rolling buffer of the window");
}

/// With a window of `w + 1` keys the mask is chapter 8's causal sliding window of `w`.
#[test]
/// (Chapter 8's `w` counts the keys before the query; this chapter's `Window` counts every key a
/// query sees, itself included: chapter 8's `w` is `Window(Some(w + 1))`.)
fn window_mask_is_chapter_8s_sliding_window() {
    let dev = Dev::default();
    let (n, w) = (12, 3);
    let mask = positions_allowed(&dev, 0..n, 0..n, Some(w + 1)).as_vec();
    let window = SlidingWindow { w, causal: true };
    for i in 0..n {
        let keys = window.keys(i, n);
        for j in 0..n {
            assert_eq!(mask[i * n + j], keys.contains(&j), "query {i}, key {j}");
        }
    }
}

/// Mistral's window of 4,096 keys: a query sees the key 4,095 positions back, never 4,096.
#[test]
fn a_window_of_4096_reaches_4095_back() {
    let window = MISTRAL_7B_V01.sliding_window;
    assert_eq!(window, Some(4096));
    let m = 10_000;
    assert!(may_attend(m, m - 4095, window));
    assert!(!may_attend(m, m - 4096, window));
    assert_eq!((0..=m).filter(|&n| may_attend(m, n, window)).count(), 4096);
}

/// Decoding one token at a time through a rolling buffer of `W` positions gives what chapter 8's
/// sliding-window attention gives on the whole sequence, and the buffer never holds more than
/// `W` positions.
#[test]
fn rolling_buffer_equals_sliding_window_attention() {
    let dev = support::seeded_device(11);
    let attn: GroupedQueryAttention<32, 4, 2, 8, 16, f32, Dev> = BuildModule::build(&dev);
    let rope = Rope::default();
    let (n, window) = (14, 4);
    let x = support::normal_tensor(&dev, 12, (1, n, Const::<32>));

    // chapter 8, on the heads this layer projects (key/value heads repeated to the query heads)
    let (q, k, v) = attn.project(x.clone(), &rope, 0);
    let (k, v) = (
        ch10_language_models::repeat_kv::<4, 2, 8, _, _>(k),
        ch10_language_models::repeat_kv::<4, 2, 8, _, _>(v),
    );
    let heads =
        |t: Tensor<(usize, Const<4>, usize, Const<8>), f32, Dev>| Heads::new(4, n, 8, t.as_vec());
    let slid = ch08_efficient::sliding::sliding_window(
        &heads(q),
        &heads(k),
        &heads(v),
        SlidingWindow { w: window - 1, causal: true },
    );

    // this chapter, one token at a time; the heads before o_proj are what chapter 8 computes
    let mut cache = LayerCache::rolling(window);
    let mut per_step = vec![0.0f32; 4 * n * 8];
    for t in 0..n {
        let token = x.clone().slice((.., t..t + 1, ..));
        let (q, k, v) = attn.project(token, &rope, cache.next_position());
        let (k, v, keys) = cache.append(k, v);
        assert!(keys.len() <= window && cache.len() <= window);
        let (k, v) = (
            ch10_language_models::repeat_kv::<4, 2, 8, _, _>(k),
            ch10_language_models::repeat_kv::<4, 2, 8, _, _>(v),
        );
        let mask = positions_allowed(&dev, t..t + 1, keys, Some(window));
        let mask = ch01_attention::broadcast_mask(mask, 1, Const::<4>);
        let (out, _) = ch01_attention::scaled_dot_product_attention(q, k, v, Some(&mask));
        for (h, row) in out.as_vec().chunks(8).enumerate() {
            per_step[(h * n + t) * 8..(h * n + t + 1) * 8].copy_from_slice(row);
        }
    }
    support::assert_close(&per_step, &slid.data, 1e-5);
    assert_eq!(cache.len(), window);
    assert_eq!(cache.positions(), n - window..n);
}

/// The rolling buffer inside the model: its logits equal the uncached model's with the same
/// window, and its memory stops growing at the window.
#[test]
fn rolling_cache_in_the_layer_equals_windowed_attention() {
    let dev = support::seeded_device(13);
    let attn: GroupedQueryAttention<32, 4, 2, 8, 16, f32, Dev> = BuildModule::build(&dev);
    let rope = Rope::default();
    let (n, window) = (10, 3);
    let x = support::normal_tensor(&dev, 14, (1, n, Const::<32>));
    let (q, k, v) = attn.project(x.clone(), &rope, 0);
    let (full, _) = attn.attend(q, k, v, 0..n, 0..n, Some(window));
    let mut cache = LayerCache::rolling(window);
    let (mut stepped, mut bytes) = (Vec::new(), Vec::new());
    for t in 0..n {
        let (out, _) = attn.forward_cached(x.clone().slice((.., t..t + 1, ..)), &rope, &mut cache);
        stepped.extend(out.as_vec());
        bytes.push(cache.bytes());
    }
    support::assert_close(&stepped, &full.as_vec(), 1e-5);
    let per_position = 2 * 2 * 8 * 4; // keys and values, 2 heads of 8 floats
    assert_eq!(bytes, [1, 2, 3, 3, 3, 3, 3, 3, 3, 3].map(|p| p * per_position));
}

/// The mask of one new query against the cache is a row of ones (it may see every earlier
/// position); the square causal mask of the new tokens alone would be `1 x 1` and not fit.
#[test]
fn one_query_over_the_cache_sees_every_key() {
    let dev = Dev::default();
    let row = positions_allowed(&dev, 7..8, 0..8, None);
    assert_eq!(row.shape().concrete(), [1, 8]);
    assert!(row.as_vec().into_iter().all(|a| a));
    let block = positions_allowed(&dev, 5..8, 0..8, None).as_vec();
    let ones: Vec<usize> = block.chunks(8).map(|r| r.iter().filter(|&&a| a).count()).collect();
    assert_eq!(ones, [6, 7, 8]);
}

/// Five tokens cached, then the sixth. Returns the layer, the sixth token, the cache before it and
/// the right output (what recomputing all six gives in the last row).
fn sixth_token() -> (
    GroupedQueryAttention<32, 4, 2, 8, 16, f32, Dev>,
    Tensor<(usize, usize, Const<32>), f32, Dev>,
    LayerCache<2, 8, Dev>,
    Vec<f32>,
) {
    let dev = support::seeded_device(17);
    let attn: GroupedQueryAttention<32, 4, 2, 8, 16, f32, Dev> = BuildModule::build(&dev);
    let rope = Rope::default();
    let x = support::normal_tensor(&dev, 18, (1, 6, Const::<32>));
    let mut cache = LayerCache::new();
    attn.forward_cached(x.clone().slice((.., 0..5, ..)), &rope, &mut cache);
    let before = cache.clone();
    let sixth = x.clone().slice((.., 5..6, ..));
    let right = attn.forward_cached(sixth.clone(), &rope, &mut cache).0.as_vec();
    let full = attn.forward(x, &rope, Window(None)).0.as_vec();
    support::assert_close(&right, &full[5 * 32..], 1e-5);
    (attn, sixth, before, right)
}

/// The pitfall: the new token turned as if it were at position 0.
#[test]
fn restarting_positions_changes_the_output() {
    let (attn, sixth, mut cache, right) = sixth_token();
    let (q, k, v) = attn.project(sixth, &Rope::default(), 0); // should be 5
    let (k, v, keys) = cache.append(k, v);
    let wrong = attn.attend(q, k, v, 5..6, keys, None).0.as_vec();
    assert!(support::max_abs_diff(&wrong, &right) > 1e-3);
}

/// The pitfall: the cached keys turned again, by their positions, at the next step.
#[test]
fn turning_cached_keys_twice_changes_the_output() {
    let (attn, sixth, mut cache, right) = sixth_token();
    let rope = Rope::default();
    let (q, k, v) = attn.project(sixth, &rope, cache.next_position());
    let (k, v, keys) = cache.append(k, v);
    let twice = rope.apply(k, keys.start); // every key now turned by twice its angle
    let wrong = attn.attend(q, twice, v, 5..6, keys, None).0.as_vec();
    assert!(support::max_abs_diff(&wrong, &right) > 1e-3);
}

/// `is_causal=True` with one query and 8 keys: PyTorch's triangle `ones(1, 8).tril()` starts at
/// the top-left corner and lets the query see key 0 only; in positions, query 7 sees all 8.
#[test]
fn top_left_causal_mask_hides_the_cache() {
    let dev = Dev::default();
    let top_left = dev.lower_tri_like(&(1, 8), 1.0f32, 0).as_vec();
    assert_eq!(top_left, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let by_position = positions_allowed(&dev, 7..8, 0..8, None).as_vec();
    assert_eq!(by_position, [true; 8]);
    // the top-left triangle is the mask of a query numbered 0, not of the query at position 7
    assert_eq!(
        positions_allowed(&dev, 0..1, 0..8, None).as_vec().iter().filter(|&&a| a).count(),
        1
    );
}
