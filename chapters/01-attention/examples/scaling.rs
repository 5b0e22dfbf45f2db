//! Why scaling matters: unscaled scores saturate softmax when d_k = 512.
//!
//! `cargo run -p ch01-attention --example scaling`
use ch01_attention::scaling;

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: scaling
    let exp = scaling::run::<512, _>(&dev, 8, 42);
    for (name, s) in [("unscaled", exp.unscaled()), ("scaled  ", exp.scaled())] {
        println!(
            "{name}: score std {:6.2}, max |score| {:6.2}, mean max weight {:.3}, rows > 0.99: {:.0}%",
            s.score_std, s.score_max_abs, s.mean_max_weight, 100.0 * s.saturated_rows
        );
    }
    let (raw, scaled) = exp.row(0);
    println!("row 0 unscaled weights: {:.3?}", raw);
    println!("row 0 scaled weights:   {:.3?}", scaled);
    // ANCHOR_END: scaling
}
