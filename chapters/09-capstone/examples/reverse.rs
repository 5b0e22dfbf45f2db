//! Reverses the digits given on the command line with the committed model:
//! `cargo run --release -p ch09-capstone --example reverse -- 3 1 4 1 5`.
//! Prints `output:` and the answer, then the last layer's cross-attention (mean over heads).

use ch09_capstone::attention::{cross_attention, render};
use ch09_capstone::trained::try_load_model;
use ch09_capstone::vocab::parse_digits;
use ch09_capstone::MAX_DIGITS;
use support::Dev;

fn main() {
    let words = support::cli::args_or_exit();
    let digits = parse_digits(&words, MAX_DIGITS).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let dev = Dev::default();
    let model = try_load_model(&dev).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    let read = cross_attention(&model, &dev, &digits);
    let shown: Vec<String> = read.answer.iter().map(|d| d.to_string()).collect();
    println!("output: {}", shown.join(" "));
    let last = read.maps.len() - 1;
    println!(
        "\ncross-attention of the last layer, mean of the heads (rows: what the model wrote):"
    );
    print!("{}", render(&read.head_mean(last), &digits, &read.answer));
}
