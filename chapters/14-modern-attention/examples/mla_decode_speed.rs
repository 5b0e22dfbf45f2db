//! One decoding step of one layer of multi-head latent attention with DeepSeek-V2-Lite's attention
//! sizes and DeepSeek-V3's query compression (1,536; V2-Lite has none), over caches of 2,048,
//! 8,192 and 32,768 tokens, in four forms: keys and values re-expanded from the latents at every
//! step, expanded once and cached, and absorbed with the folded matrices multiplied out or the
//! factors applied in turn; 11 rounds, each running every form once. `--json` prints the run as
//! `measurements/mla_decode.json` keeps it.
//!
//! `cargo run --release -p ch14-modern-attention --example mla_decode_speed [-- --json]`

use ch14_modern_attention::mla::decode_speed::{Run, ROUNDS, TOKENS};
use ch14_modern_attention::mla::speed::{lite_layer, time_steps};

fn main() {
    let json = support::cli::flag_or_exit("--json", "usage: mla_decode_speed [--json]");
    let dev = support::seeded_device(0);
    let layer = lite_layer(&dev);
    let folded = layer.absorb();
    let rows = TOKENS.iter().map(|&n| time_steps(&layer, &folded, n, ROUNDS)).collect();
    let run = Run { machine: support::machine::describe(), threads: available_cores(), rows };
    if json {
        println!("{}", run.to_json());
    } else {
        print!("{}", run.table());
    }
}

/// The threads the system offers this process (`std::thread::available_parallelism`): the size of
/// rayon's pool, from which dfdx's `gemm` takes its threads, unless `RAYON_NUM_THREADS` sets
/// another (this does not read it).
fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
