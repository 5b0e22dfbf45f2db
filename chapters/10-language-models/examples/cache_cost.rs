//! Measures generation with and without the KV cache for 64 to 2,048 tokens:
//! `cargo run --release -p ch10-language-models --example cache_cost` (about 8 minutes on 2
//! cores, most of it recomputing 2,048 tokens). Prints a row per length as it goes and writes
//! `measurements/cache_cost.json`: each time is the best of up to 5 runs within 2 seconds. The
//! model has the chapter's trained shape and no window.

use ch10_language_models::analysis::cost::{best_time, CostReport, CostRow, LENGTHS};
use ch10_language_models::{Recompute, TinyLlama};

const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/measurements/cache_cost.json");

fn main() {
    let dev = support::seeded_device(0);
    let model = TinyLlama::new(&dev);
    let machine = support::machine::describe();
    println!("{machine}");
    let mut rows = Vec::new();
    for n in LENGTHS {
        let (cached_s, cached_runs) = best_time(&model, n, Recompute::NewTokenOnly);
        let (recomputed_s, recomputed_runs) = best_time(&model, n, Recompute::Everything);
        let row = CostRow { tokens: n, cached_s, cached_runs, recomputed_s, recomputed_runs };
        println!(
            "{n:>5} tokens: cached {:.3} ms/token ({:.3} s), recomputed {:.3} ms/token ({:.3} s)",
            row.cached_ms_per_token(),
            row.cached_s,
            row.recomputed_ms_per_token(),
            row.recomputed_s
        );
        rows.push(row);
    }
    let report = CostReport { machine, rows };
    let (cached, recomputed) = report.slopes();
    println!("log-log slopes of the totals: cached {cached:.2}, recomputed {recomputed:.2}");
    std::fs::create_dir_all(std::path::Path::new(OUT).parent().expect("a folder"))
        .expect("create measurements/");
    let json = serde_json::to_string_pretty(&report).expect("a report serialises");
    std::fs::write(OUT, json + "\n").expect("write the measurement");
}
