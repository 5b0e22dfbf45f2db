//! The committed measurement of generation with and without the KV cache, as the page's table
//! (`cargo run -p ch10-language-models --example cache_table`; `cache_cost` measures it, and the
//! page states the machine and the slopes, from the same file).

use ch10_language_models::figures::load_cost;

fn main() {
    let report = load_cost();
    println!("| tokens | cached, ms per token | recomputed, ms per token | cached, s | recomputed, s | recomputed / cached |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for r in &report.rows {
        println!(
            "| {} | {:.3} | {:.2} | {:.3} | {:.2} | {:.0} |",
            r.tokens,
            r.cached_ms_per_token(),
            r.recomputed_ms_per_token(),
            r.cached_s,
            r.recomputed_s,
            r.recomputed_s / r.cached_s
        );
    }
}
