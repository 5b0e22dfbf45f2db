//! The worked examples of chapter 10, with every number its page shows.

use ch10_language_models::analysis::count::{attention_crossover, multiply_adds_per_token};
use ch10_language_models::analysis::reading::{by_offset, layer_weights, sinks};
use ch10_language_models::analysis::words::{known_in_samples, known_words, sample_texts};
use ch10_language_models::char_model::chars::split;
use ch10_language_models::char_model::chars::TEXT;
use ch10_language_models::char_model::trained::load_model;
use ch10_language_models::llama::config::{Config, PUBLISHED, SMOLLM2_135M, TINY};
use ch10_language_models::llama::memory::{binary_size, HALF};
use ch10_language_models::llama::params::parameter_table;
use ch10_language_models::llama::rope::dot;
use ch10_language_models::Recompute;
use ch10_language_models::{Rope, RopeLayout, TinyLlama};
use dfdx::prelude::*;

fn rounded(v: &[f32], places: u32) -> Vec<f32> {
    support::fmt::round_all(v, places)
}

/// `x = [1, 2, 3, 4]` at position 1, base 10,000: `theta = [1, 0.01]`; the two layouts pair
/// different features and give different vectors of the same length.
#[test]
fn worked_example_rope_pair() {
    let x = [1.0f32, 2.0, 3.0, 4.0];
    let rope = Rope::new(10_000.0, RopeLayout::Interleaved);
    assert_eq!(rope.frequencies(4), [1.0, 0.01]);
    assert_eq!(rounded(&rope.rotate(&x, 1), 4), [-1.1426, 1.9221, 2.9599, 4.0298]);
    let half = Rope::new(10_000.0, RopeLayout::HalfSplit);
    assert_eq!(rounded(&half.rotate(&x, 1), 4), [-1.9841, 1.9599, 2.4624, 4.0198]);
    let norm = |v: &[f32]| dot(v, v).sqrt();
    assert!((norm(&rope.rotate(&x, 1)) - 30f64.sqrt()).abs() < 1e-6);
    assert!((norm(&half.rotate(&x, 1)) - 30f64.sqrt()).abs() < 1e-6);
}

/// `q = [1, 2, 3, 4]`, `k = [4, 3, 2, 1]`, half-split pairs: the score of q at 5 and k at 3 is the
/// score at 102 and 100, and at 2 and 0; at 3 and 5 (offset -2) it is another number. Neighbouring
/// pairs give other numbers with the same property.
#[test]
fn worked_example_relative_scores() {
    let rope = Rope::new(10_000.0, RopeLayout::HalfSplit);
    let (q, k) = ([1.0f32, 2.0, 3.0, 4.0], [4.0f32, 3.0, 2.0, 1.0]);
    let score = |m, n| dot(&rope.rotate(&q, m), &rope.rotate(&k, n));
    assert_eq!(dot(&q, &k), 20.0);
    let s = score(5, 3);
    assert!((score(102, 100) - s).abs() < 1e-4 && (score(2, 0) - s).abs() < 1e-4);
    assert_eq!(support::round_to(s as f32, 3), -3.456);
    assert_eq!(support::round_to(score(3, 5) as f32, 3), 15.129);
    assert_eq!(support::round_to(score(1, 0) as f32, 3), 6.888);
    let interleaved = Rope::new(10_000.0, RopeLayout::Interleaved);
    let other = |m, n| dot(&interleaved.rotate(&q, m), &interleaved.rotate(&k, n));
    assert!((other(102, 100) - other(5, 3)).abs() < 1e-4);
    assert_eq!(support::round_to(other(5, 3) as f32, 3), 1.19);
    assert_eq!(support::round_to(other(3, 5) as f32, 3), 10.483);
}

/// The cache of the published models, per token and at full context (half precision).
#[test]
fn worked_example_cache_memory() {
    let rows: Vec<(usize, String, String)> = PUBLISHED
        .iter()
        .map(|m| {
            let per_token = m.cache_bytes_per_token(HALF);
            let longest = m.cache_bytes(1, m.max_position_embeddings, HALF);
            (per_token, binary_size(per_token), binary_size(longest))
        })
        .collect();
    let text: Vec<(&str, &str)> = rows.iter().map(|(_, a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        text,
        [
            ("36 KiB", "36 MiB"),
            ("512 KiB", "2 GiB"),
            ("320 KiB", "1.25 GiB"),
            ("128 KiB", "512 MiB")
        ]
    );
    assert_eq!(rows[1].0, 2 * 32 * 32 * 128 * 2);
}

/// The tiny model's 98,624 parameters, term by term: every row of the page's table against
/// dfdx's count of that part of the built model, and against the Hugging Face checkpoint's.
#[test]
fn worked_example_parameter_count() {
    let dev = support::Dev::default();
    let model = TinyLlama::<support::Dev>::new(&dev);
    let table = parameter_table(TINY);
    let count = |part: &str| table.row(part).count.value();
    assert_eq!(count("token embedding"), model.embed_tokens.num_trainable_params());
    assert_eq!(
        table
            .row("one block: attention (q, k, v, o), SwiGLU (gate, up, down), 2 RMSNorms")
            .count
            .value(),
        model.layers[0].num_trainable_params()
    );
    assert_eq!(count("2 blocks"), 86_272);
    assert_eq!(count("final RMSNorm"), model.norm.num_trainable_params());
    assert_eq!(count("output projection"), model.lm_head.num_trainable_params());
    assert_eq!(table.total().value(), 98_624);
    assert_eq!(model.num_trainable_params(), 98_624);
    let tied = parameter_table(Config { tie_word_embeddings: true, ..TINY });
    assert_eq!(tied.total().value(), 98_624 - 6_144);
    // the fixture's checkpoint: 98,624 floats of 4 bytes, plus its header
    let file =
        std::fs::metadata(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tiny_llama.safetensors"));
    assert!(file.unwrap().len() > 4 * 98_624);
}

/// A second configuration is one more preset: SmolLM2-135M's sizes give its published count,
/// 134,515,008 parameters with the output projection tied to the embedding.
#[test]
fn smollm2_135m_is_one_more_preset() {
    let table = parameter_table(SMOLLM2_135M);
    assert_eq!(table.total().value(), 134_515_008);
    assert_eq!((SMOLLM2_135M.kv_width(), SMOLLM2_135M.group()), (192, 3));
    assert_eq!(TINY.kv_width(), 32);
    let untied = parameter_table(Config { tie_word_embeddings: false, ..SMOLLM2_135M });
    assert_eq!(untied.total().value() - table.total().value(), 49_152 * 576);
}

/// The trained model reads mostly the last few characters and keeps no sink on the first
/// position of its window: every head puts less than an even share there.
#[test]
fn worked_example_attention_sinks() {
    let dev = support::Dev::default();
    let model = load_model(&dev);
    let weights = layer_weights(&model, &dev, &split().1, 16, 128);
    let heads = sinks(&weights, 4, 128);
    assert_eq!(round3(heads[0].uniform), 0.018);
    let firsts: Vec<f64> = heads.iter().map(|s| round3(s.first)).collect();
    assert_eq!(firsts, [0.007, 0.013, 0.006, 0.004, 0.0, 0.002, 0.002, 0.002]);
    assert!(heads.iter().all(|s| s.first < s.uniform));
    let offsets = by_offset(&weights, 128, 8);
    let rounded = |layer: usize| offsets[layer][..4].iter().map(|&w| round3(w)).collect::<Vec<_>>();
    assert_eq!(rounded(0), [0.195, 0.172, 0.086, 0.042]);
    assert_eq!(rounded(1), [0.105, 0.376, 0.257, 0.087]);
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The committed training run, as the page reports it.
#[test]
fn worked_example_training_run() {
    let r = ch10_language_models::char_model::trained::load_report();
    let c = &r.config;
    assert_eq!(
        (c.steps, c.batch_size, c.context, c.peak_lr, c.warmup_steps),
        (360, 16, 128, 5e-3, 40)
    );
    assert_eq!(r.parameters, 98_624);
    assert_eq!((r.train_chars, r.held_out_chars), (322_017, 35_750));
    assert_eq!(round4(r.held_out_loss), 2.0258);
    assert_eq!(round4(r.bigram_loss), 2.5531);
    assert_eq!(round4(r.unigram_loss), 3.1672);
    assert_eq!((r.seconds * 10.0).round() / 10.0, 91.1);
    assert!(r.seconds <= 120.0, "the chapter's budget of two minutes");
    assert_eq!(r.machine, "AMD EPYC, 2 cores (avx2, fma)");
    assert_eq!(round3((96f64).ln()), 4.564);
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The committed measurement of generation with and without the cache, as the page quotes it.
#[test]
fn worked_example_cache_cost() {
    let report = ch10_language_models::figures::load_cost();
    let tokens: Vec<usize> = report.rows.iter().map(|r| r.tokens).collect();
    assert_eq!(tokens, ch10_language_models::analysis::cost::LENGTHS);
    assert_eq!(report.machine, "AMD EPYC, 2 cores (avx2, fma)");
    assert!(!report.machine.contains("avx512"), "the page says: no AVX-512");
    let (cached, recomputed) = report.slopes();
    assert_eq!(
        ((cached * 100.0).round() / 100.0, (recomputed * 100.0).round() / 100.0),
        (1.55, 2.78)
    );
    let (first, last) = (&report.rows[0], &report.rows[5]);
    assert_eq!((last.recomputed_s / last.cached_s).round(), 349.0);
    assert_eq!(round3(first.cached_ms_per_token()), 0.134);
    assert_eq!(round3(report.rows[1].cached_ms_per_token()), 0.123);
    assert_eq!(round3(last.cached_ms_per_token()), 0.832);
    assert_eq!((first.recomputed_ms_per_token() * 100.0).round() / 100.0, 0.62);
    assert_eq!((last.recomputed_ms_per_token() * 10.0).round() / 10.0, 290.3);
    assert!(report.rows.iter().all(|r| r.recomputed_s > r.cached_s));
    assert!(report
        .rows
        .iter()
        .all(|r| (1..=5).contains(&r.cached_runs) && (1..=5).contains(&r.recomputed_runs)));
    // "recomputing 512 tokens or more runs once"
    for r in &report.rows {
        assert_eq!(r.recomputed_runs == 1, r.tokens >= 512, "{} tokens", r.tokens);
    }
}

/// By count of multiply-adds, a token's attention costs as much as the rest of its step at 360
/// keys in the chapter's model (92,160 each), and at about 3,900 in SmolLM2-135M.
#[test]
fn worked_example_attention_crossover() {
    assert_eq!(multiply_adds_per_token(TINY, 360), (92_160, 92_160));
    assert_eq!(attention_crossover(TINY), 361);
    assert_eq!(attention_crossover(SMOLLM2_135M), 3892);
}

/// How English the samples are: the words the three samples of the page write (prompts left
/// out) that are words of the training text.
#[test]
fn worked_example_known_words() {
    let model = load_model(&support::Dev::default());
    let (known, all) = known_in_samples(&sample_texts(&model, Recompute::NewTokenOnly));
    assert_eq!((known, all), (44, 85));
    assert_eq!((100.0 * known as f64 / all as f64).round(), 52.0);
    // the measure itself: a sentence of the book is all known words, a made-up word is not
    assert_eq!(known_words("One skilled in circumvention of the law.", TEXT), (7, 7));
    assert_eq!(known_words("Onistirent of a", TEXT), (2, 3));
}
