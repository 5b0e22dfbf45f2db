//! Prefill and decode speed on this machine: the decode path with the file's quantized blocks
//! and with the weights in `f32`, and chapter 10's model, on a 32-token prompt then 64 greedy
//! tokens, best and median of 3 rounds (2 of chapter 10's); a profiled pass of each decode path;
//! and the memory bandwidth as three readers see it, and each f32 round beside the sum reader run
//! right after it
//! (`cargo run --release -p ch11-real-llm --example speed`). `--json` prints one round of each
//! as JSON, for `compare/compare_speed.py`, the f32 round with its sum reader. `ATTENTION_PREFETCH=0` runs the decode path without
//! its software prefetch (the default asks for the bytes 1,024 ahead), to measure what it brings.

use ch11_real_llm::decode::{kernels, Decoder, Profile, Weights};
use ch11_real_llm::speed::{self, Round};
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, smollm2};
use serde_json::{json, Value};
use support::cli::{flag_or_exit, or_exit};
use support::rounds::Summary;

/// Milliseconds per decode step of each part of `profile`, with the weights each part reads.
fn per_step(profile: &Profile, bytes: &[usize; 5]) -> Vec<(&'static str, f64, usize)> {
    let steps = (speed::NEW_TOKENS - 1) as f64;
    (profile.parts().iter().zip(bytes))
        .map(|((part, t), &b)| (*part, t.as_secs_f64() * 1e3 / steps, b))
        .collect()
}

fn main() {
    let json = flag_or_exit("--json", "usage: speed [--json]");
    let prefetch = or_exit(kernels::prefetch_ahead());
    let file = model_file::open_or_exit();
    let prompt = speed::prompt_ids(&Tokenizer::from_gguf(&file).unwrap());
    let rounds = if json { 1 } else { 3 };
    let mut results = Vec::new();
    let mut profiles = Vec::new();
    // each f32 round paired with the sum reader right after it: a shared machine's bandwidth
    // moves between moments, and the readers at the end may not see the rounds' moment
    let mut paired = Vec::new();
    for (name, weights) in [("quantized", Weights::Quantized), ("f32", Weights::Dequantized)] {
        let model = Decoder::from_gguf(&file, weights).unwrap();
        let pair = name == "f32";
        let ones = if pair { vec![1.0f32; speed::BANDWIDTH_BYTES / 4] } else { vec![] };
        let runs: Vec<Round> = (0..rounds)
            .map(|_| {
                let round = speed::decoder_round(&model, &prompt);
                if pair {
                    let read = round.decode_tokens_per_s * model.bytes_per_token() as f64;
                    paired.push((read, speed::sum_reader(&ones)));
                }
                round
            })
            .collect();
        let profile = speed::decoder_profile(&model, &prompt);
        profiles.push((name, per_step(&profile, &model.part_bytes())));
        results.push((name, runs, model.bytes_per_token()));
    }
    let model = smollm2::from_gguf(&file, &support::Dev::default()).unwrap();
    let runs = (0..rounds.min(2)).map(|_| speed::chapter10_round(&model, &prompt)).collect();
    results.push(("chapter 10", runs, results[1].2));
    drop(model);
    let readers = speed::bandwidth_readers();
    if json {
        let paths: Vec<Value> = (results.iter())
            .map(|(name, runs, bytes)| {
                // the sum reader run right after the f32 round, in the same moment
                let reader = (*name == "f32").then(|| paired[0].1);
                let profile = profiles.iter().find(|(n, _)| n == name).map(|(_, parts)| {
                    (parts.iter())
                        .map(|(part, ms, b)| json!({"part": part, "ms_per_token": ms, "weight_bytes": b}))
                        .collect::<Vec<_>>()
                });
                json!({
                    "path": name,
                    "prefill_tokens_per_s": runs[0].prefill_tokens_per_s,
                    "decode_tokens_per_s": runs[0].decode_tokens_per_s,
                    "weight_bytes_per_token": bytes,
                    "tokens": runs[0].tokens,
                    "profile": profile,
                    "paired_sum_reader_bytes_per_s": reader,
                })
            })
            .collect();
        let each: Vec<Value> = (readers.iter())
            .map(|r| json!({"reader": r.name, "bytes_per_s": r.bytes_per_s}))
            .collect();
        let run = json!({
            "machine": support::machine::describe(),
            "isa": ch08_efficient::fast::Isa::chosen().name(),
            "threads": rayon::current_num_threads(),
            "prefetch_bytes": prefetch,
            "prompt_ids": prompt,
            "read_bandwidth_bytes_per_s": speed::best_reader(&readers),
            "bandwidth_readers": each,
            "paths": paths,
        });
        println!("{run}");
        return;
    }
    println!("{}", support::machine::describe());
    println!("software prefetch: {prefetch} bytes ahead (ATTENTION_PREFETCH; 0 turns it off)");
    for (name, runs, bytes) in &results {
        let rates = |f: fn(&Round) -> f64| runs.iter().map(f).collect::<Vec<f64>>();
        let summary = |xs: Vec<f64>| Summary::of(&xs).expect("positive rates");
        let p = summary(rates(|r| r.prefill_tokens_per_s));
        let d = summary(rates(|r| r.decode_tokens_per_s));
        let same = runs[0].tokens == results[0].1[0].tokens;
        println!(
            "{name:>10}: prefill {:6.1} tokens/s (median {:6.1}), decode {:5.1} tokens/s (median {:5.1}) over {} rounds, {:5.1} MB of weights per token, tokens {} the quantized path's",
            p.best,
            p.median,
            d.best,
            d.median,
            d.rounds,
            *bytes as f64 / 1e6,
            if same { "equal to" } else { "differ from" }
        );
    }
    for (name, parts) in &profiles {
        println!("one decode step, {name} (a separate, profiled pass):");
        for (part, ms, b) in parts {
            println!("  {part:>30}: {ms:6.2} ms, {:6.1} MB of weights", *b as f64 / 1e6);
        }
    }
    for r in &readers {
        println!("memory bandwidth, {}: {:.1} GB/s", r.name, r.bytes_per_s / 1e9);
    }
    let pairs: Vec<String> = (paired.iter())
        .map(|(read, sum)| {
            format!("{:.1} of {:.1} GB/s ({:.0} %)", read / 1e9, sum / 1e9, 100.0 * read / sum)
        })
        .collect();
    println!(
        "f32 decode's reading beside the sum reader run right after it, round by round: {}",
        pairs.join(", ")
    );
}
