//! The decode path against chapter 10's model, on a small random model (no file needed): the
//! same logits all at once and token by token, the rolling window equal to chapter 10's sliding
//! window, and StreamingLLM's cache keeping the sinks and the latest tokens; a prompt's expanded
//! quantized rows equal to the dequantizer's weights.

use ch08_efficient::fast::Isa;
use ch10_language_models::llama::lm::LanguageModel;
use ch10_language_models::{TinyLlama, Window};
use ch11_real_llm::decode::{Cache, Decoder, Keep, Matrix, Policy};
use ch11_real_llm::gguf::{dequantize, TensorType};
use support::Dev;

fn tiny(seed: u64) -> TinyLlama<Dev> {
    TinyLlama::<Dev>::new(&Dev::seed_from_u64(seed))
}

fn tokens(n: usize) -> Vec<usize> {
    (0..n).map(|i| (i * 7 + 3) % 96).collect()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// `tokens` through `model` in chunks of `chunk`, every position's logits.
fn in_chunks(model: &Decoder, cache: &mut Cache, tokens: &[usize], chunk: usize) -> Vec<f32> {
    tokens.chunks(chunk).flat_map(|c| model.forward(c, cache, Keep::All)).collect()
}

#[test]
fn the_decode_path_gives_chapter_10s_logits_at_once_and_token_by_token() {
    let model = tiny(0);
    let decoder = Decoder::from_model(&model);
    let ids = tokens(40);
    let reference = model.logits(&ids);
    let full = || decoder.new_cache(Policy::Full { capacity: 40 });
    let at_once = decoder.forward(&ids, &mut full(), Keep::All);
    assert!(max_diff(&at_once, &reference) < 1e-5, "{}", max_diff(&at_once, &reference));
    let one_by_one = in_chunks(&decoder, &mut full(), &ids, 1);
    assert!(max_diff(&one_by_one, &reference) < 1e-5, "{}", max_diff(&one_by_one, &reference));
    let mut cache = full();
    let last = decoder.forward(&ids[..39], &mut cache, Keep::Last);
    assert!(max_diff(&last, &reference[38 * 96..39 * 96]) < 1e-5);
    assert_eq!(cache.next_position(), 39);
}

#[test]
fn a_rolling_window_gives_chapter_10s_sliding_window_logits() {
    let mut model = tiny(1);
    model.window = Window(Some(8));
    let decoder = Decoder::from_model(&model);
    let ids = tokens(30);
    let reference = model.logits(&ids); // chapter 10: the whole sequence under a window mask
    let mut cache = decoder.new_cache(Policy::window(8));
    let got = in_chunks(&decoder, &mut cache, &ids, 5);
    assert!(max_diff(&got, &reference) < 1e-5, "{}", max_diff(&got, &reference));
    // the storage never grew: 2 layers, keys and values, 8 slots of 2 heads of 16 floats
    assert_eq!(cache.bytes(), 2 * 2 * 8 * 32 * 4);
    // without the window the logits differ after position 8
    let unwindowed = Decoder::from_model(&tiny(1)).forward(&ids, &mut cache_of(30), Keep::All);
    assert!(max_diff(&unwindowed[..8 * 96], &reference[..8 * 96]) < 1e-5);
    assert!(max_diff(&unwindowed, &reference) > 1e-3);
}

fn cache_of(capacity: usize) -> Cache {
    Cache::new(Policy::Full { capacity }, 2, 32)
}

#[test]
fn streamings_cache_keeps_the_sinks_and_the_latest_tokens() {
    let mut cache = Cache::new(Policy::Streaming { sinks: 4, recent: 8 }, 1, 2);
    let slots: Vec<usize> = (0..20).map(|_| cache.admit()).collect();
    assert_eq!(slots, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11]);
    let mut held = cache.positions().to_vec();
    held.sort();
    assert_eq!(held, [0, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19]);
    assert_eq!(cache.next_position(), 20);
}

#[test]
fn a_streaming_cache_larger_than_the_text_changes_nothing() {
    let decoder = Decoder::from_model(&tiny(2));
    let ids = tokens(24);
    let full = in_chunks(&decoder, &mut cache_of(24), &ids, 4);
    let streaming = decoder.new_cache(Policy::Streaming { sinks: 4, recent: 20 });
    assert_eq!(in_chunks(&decoder, &mut streaming.clone(), &ids, 4), full);
    // one slot fewer and the last token's logits move: it no longer sees token 4
    let mut short = decoder.new_cache(Policy::Streaming { sinks: 4, recent: 19 });
    let got = in_chunks(&decoder, &mut short, &ids, 4);
    assert_eq!(got[..23 * 96], full[..23 * 96]);
    assert!(max_diff(&got[23 * 96..], &full[23 * 96..]) > 1e-4);
}

#[test]
#[should_panic(expected = "holds 3 tokens and is full")]
fn a_full_cache_refuses_one_token_more() {
    let mut cache = cache_of(3);
    for _ in 0..4 {
        cache.admit();
    }
}

/// A random finite half float's bytes: every size a half float has, subnormal to the largest.
fn random_half(rng: &mut impl rand::Rng) -> [u8; 2] {
    loop {
        let h = half::f16::from_bits(rng.gen());
        if h.is_finite() {
            return h.to_bits().to_le_bytes();
        }
    }
}

/// `rows × 64` weights of `kind` (Q4_1 or Q8_0) in random blocks, seeded.
fn random_blocks(kind: TensorType, rows: usize, seed: u64) -> Vec<u8> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut bytes = Vec::new();
    for _ in 0..rows * 2 {
        bytes.extend(random_half(&mut rng)); // d
        let codes = match kind {
            TensorType::Q4_1 => {
                bytes.extend(random_half(&mut rng)); // m
                16
            }
            _ => 32,
        };
        bytes.extend((0..codes).map(|_| rng.gen::<u8>()));
    }
    bytes
}

#[test]
fn a_prompts_expanded_rows_are_the_dequantized_weights() {
    // several tokens expand each quantized row once; with the 64 unit vectors as the tokens,
    // token t's outputs are column t of the expanded weights, so they can be compared exactly
    let (rows, cols) = (32, 64);
    let identity: Vec<f32> =
        (0..cols * cols).map(|i| if i / cols == i % cols { 1.0 } else { 0.0 }).collect();
    for (kind, seed) in [(TensorType::Q4_1, 1), (TensorType::Q8_0, 2)] {
        let bytes = random_blocks(kind, rows, seed);
        let weights = dequantize(kind, &bytes);
        let matrix = Matrix::from_stored(kind, rows, cols, &bytes, false).unwrap();
        for isa in Isa::available() {
            let out = matrix.apply(isa, &identity, cols);
            for (r, row) in weights.chunks(cols).enumerate() {
                for (t, &w) in row.iter().enumerate() {
                    let got = out[t * rows + r];
                    assert!(got == w, "{kind:?} on {isa:?}, row {r} column {t}: {got} != {w}");
                }
            }
        }
    }
}

#[test]
fn chapter_10s_model_sees_128_characters() {
    // the page: chapter 10's cache copies itself at every step, "fine for chapter 10's model,
    // which sees at most 128 characters"
    assert_eq!(ch10_language_models::TrainConfig::char_model().context, 128);
}
