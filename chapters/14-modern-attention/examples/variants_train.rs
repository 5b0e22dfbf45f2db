//! Trains chapter 10's character model three ways from the same weights on the same windows: as
//! it is, with QK-norm, and with an output gate, each with seeds 0, 1 and 2; reads the largest
//! attention score and the weight on position 0 on held-out text every 40 steps. `--json` prints the runs as
//! `measurements/variants.json` keeps them (release build: nine runs of chapter 10's training).
//!
//! `cargo run --release -p ch14-modern-attention --example variants_train [-- --json]`

use ch10_language_models::TrainConfig;
use ch14_modern_attention::variants::report::Runs;
use ch14_modern_attention::variants::train::train;
use ch14_modern_attention::variants::Variant;

fn main() {
    let json = support::cli::flag_or_exit("--json", "usage: variants_train [--json]");
    let config = TrainConfig::char_model();
    let (every, seeds) = (40, vec![0, 1, 2]);
    let mut runs = Vec::new();
    for &seed in &seeds {
        let config = TrainConfig { seed, ..config.clone() };
        for variant in [Variant::Plain, Variant::QkNorm, Variant::Gate] {
            let dev = support::seeded_device(seed);
            let (_, run) = train(&dev, variant, &config, config.steps, every, |step, loss| {
                if step % every == 0 {
                    eprintln!("{variant:?}, seed {seed}: step {step}, loss {loss:.3}");
                }
            });
            runs.push(run);
        }
    }
    let runs = Runs { machine: support::machine::describe(), config, every, seeds, runs };
    if json {
        println!("{}", serde_json::to_string_pretty(&runs).expect("json"));
    } else {
        print!("{}", runs.table());
    }
}
