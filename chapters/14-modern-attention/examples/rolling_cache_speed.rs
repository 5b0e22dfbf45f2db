//! One decoding step of one local layer at Gemma 3 27B's attention sizes after 32,768 tokens,
//! with every key held (the window applied by the mask) and with chapter 10's rolling buffer of
//! the window's 1,024 keys, 7 rounds alternating. `--json` prints the run as
//! `measurements/rolling_cache.json` keeps it.
//!
//! `cargo run --release -p ch14-modern-attention --example rolling_cache_speed [-- --json]`

use ch14_modern_attention::local_global::speed::{time_steps, TOKENS, WINDOW};

fn main() {
    let json = support::cli::flag_or_exit("--json", "usage: rolling_cache_speed [--json]");
    let run = time_steps(&support::seeded_device(0), TOKENS, WINDOW, 7);
    if json {
        println!("{}", serde_json::to_string_pretty(&run).expect("json"));
    } else {
        println!("{run:?}");
    }
}
