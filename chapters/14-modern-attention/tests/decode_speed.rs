//! The committed decoding-speed run (`measurements/mla_decode.json`) and the page's numbers.

use ch14_modern_attention::mla::decode_speed::{committed, ms, ratio, ROUNDS, TOKENS};
use ch14_modern_attention::mla::speed::{multiply_adds, Timed, HEADS, KV_RANK, NOPE, ROPE, V};

/// Rounded to one decimal, as the page writes it.
fn shown(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Rounded to two decimals.
fn shown2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[test]
fn the_committed_run_has_every_length_and_round() {
    let run = committed();
    // the page's introduction names the machine: a 2-core AMD EPYC with AVX-512
    assert!(run.machine.starts_with("AMD EPYC, 2 cores"), "{}", run.machine);
    assert!(run.machine.contains("avx512f"), "{}", run.machine);
    assert_eq!(run.threads, 2);
    let tokens: Vec<usize> = run.rows.iter().map(|r| r.tokens).collect();
    assert_eq!(tokens, TOKENS);
    for r in &run.rows {
        for form in Timed::ALL {
            assert_eq!(r.of(form).len(), ROUNDS, "{} tokens, {}", r.tokens, form.name());
        }
        // the page: every form's output within 5e-7 of the re-expanded form's
        assert!(r.difference < 5e-7, "{}: the forms differ by {}", r.tokens, r.difference);
    }
    assert_eq!(ROUNDS, 11);
}

/// The goal (the absorbed form at least twice as fast as re-expanding, at 8,192 tokens) and
/// every ratio the page writes, from the file.
#[test]
fn the_pages_ratios() {
    let run = committed();
    let r = |row: usize, form| {
        let s = ratio(&run.rows[row], form);
        (shown2(s.median), shown2(s.slowest), shown2(s.best))
    };
    // re-expanded over absorbed in turn: the goal is at 8,192 tokens
    assert!(r(1, Timed::Reexpanded).0 >= 2.0);
    assert_eq!(r(0, Timed::Reexpanded).0, 13.94);
    assert_eq!(r(1, Timed::Reexpanded), (24.25, 19.24, 38.12));
    assert_eq!(r(2, Timed::Reexpanded).0, 41.57);
    // the cache of expanded keys and values over absorbed in turn
    assert_eq!(r(0, Timed::KeysValues), (1.95, 1.34, 2.27));
    assert_eq!(r(1, Timed::KeysValues), (2.46, 1.93, 4.03));
    assert_eq!(r(2, Timed::KeysValues), (3.46, 3.17, 4.63));
    // the folded matrices over the factors in turn: slower at 2,048 by the median, not in every
    // round, and no different at 32,768
    assert_eq!(r(0, Timed::Folded), (1.39, 0.92, 1.87));
    assert_eq!(r(1, Timed::Folded), (1.15, 0.76, 1.44));
    assert_eq!(r(2, Timed::Folded), (0.99, 0.8, 1.37));
}

/// The medians in milliseconds that the page quotes.
#[test]
fn the_pages_milliseconds() {
    let run = committed();
    let median = |row: usize, form| shown(ms(&run.rows[row], form).median);
    assert_eq!(median(1, Timed::Reexpanded), 364.2);
    assert_eq!(median(1, Timed::KeysValues), 36.7);
    assert_eq!(median(1, Timed::Folded), 16.6);
    assert_eq!(median(1, Timed::InTurn), 15.1);
    assert_eq!(median(0, Timed::InTurn), 7.3);
    assert_eq!(median(2, Timed::KeysValues), 132.8);
}

/// Multiply-adds per step at DeepSeek-V2-Lite's attention sizes (a 2,048-wide stream; the timed
/// layer's queries compressed to 1,536, DeepSeek-V3's `q_lora_rank`): per cached token and once
/// per step, for every form.
#[test]
fn the_pages_counts() {
    use ch14_modern_attention::mla::speed::{HIDDEN, Q_RANK};
    assert_eq!((HIDDEN, Q_RANK), (2048, 1536));
    let [reexpanded, keys_values, folded, in_turn] = Timed::ALL.map(multiply_adds);
    // per cached token: the expansion, the attention over 16 heads' keys and values, the
    // attention over the latents
    assert_eq!(KV_RANK * HEADS * (NOPE + V), 2_097_152);
    assert_eq!(reexpanded.1, 2_097_152 + 5_120);
    assert_eq!(keys_values.1, 5_120);
    assert_eq!((folded.1, in_turn.1), (17_408, 17_408));
    // the absorbed form does 3.4 times the attention's arithmetic for 8.9 times fewer bytes
    assert_eq!(shown(in_turn.1 as f64 / keys_values.1 as f64), 3.4);
    let (latent_bytes, kv_bytes) = ((KV_RANK + ROPE) * 4, HEADS * (NOPE + ROPE + V) * 4);
    assert_eq!((latent_bytes, kv_bytes), (2304, 20_480));
    assert_eq!(shown(kv_bytes as f64 / latent_bytes as f64), 8.9);
    // what a step does once: folded about 34 million, in turn about 14 million
    assert_eq!(folded.0, 34_078_720);
    assert_eq!(in_turn.0, 14_155_776);
    assert_eq!((keys_values.0, reexpanded.0), (14_155_776, 12_058_624));
    // 120 times fewer per cached token than re-expanding
    assert_eq!(2_097_152 / in_turn.1, 120);
}

/// What the counts predict at 8,192 tokens, and the arithmetic rate each form ran at: the
/// absorbed step does 110 times fewer multiply-adds but runs them at about a fifth of the rate.
#[test]
fn the_pages_rates() {
    let run = committed();
    let row = &run.rows[1];
    assert_eq!(row.tokens, 8192);
    let total = |form| {
        let (once, per) = multiply_adds(form);
        (once + per * row.tokens) as f64
    };
    assert_eq!((total(Timed::Reexpanded) / total(Timed::InTurn)).round(), 110.0);
    // billions of multiply-adds per second, at the median
    let rate = |form| total(form) / ms(row, form).median / 1e6;
    assert_eq!(rate(Timed::Reexpanded).round(), 47.0);
    assert_eq!(rate(Timed::InTurn).round(), 10.0);
    // the cache of expanded keys and values read at 4.6 GB/s at 8,192 tokens and 5.1 at 32,768
    let read = |r: usize| {
        let t = &run.rows[r];
        (t.tokens * HEADS * (NOPE + ROPE + V) * 4) as f64 / ms(t, Timed::KeysValues).median / 1e6
    };
    assert_eq!((shown(read(1)), shown(read(2))), (4.6, 5.1));
}
