//! Linear attention is not softmax attention: on the same queries, keys and values, how far apart
//! the two outputs are, and how much flatter linear attention's weights are.

use ch08_efficient::quality::linear_vs_softmax;

fn main() {
    let c = linear_vs_softmax(64);
    println!("64 random tokens, d_k 16");
    println!(
        "mean |softmax - linear| of the outputs: {:.3} (mean |value|: {:.3})",
        c.mean_abs_diff, c.mean_abs_value
    );
    println!(
        "entropy of a row of weights, mean (nats; uniform = ln 64 = {:.3}):",
        (c.n as f32).ln()
    );
    println!("  softmax: {:.3}", c.entropy_softmax);
    println!("  linear:  {:.3}", c.entropy_linear);
    println!(
        "largest weight of a row, mean: softmax {:.3}, linear {:.3}",
        c.largest_softmax, c.largest_linear
    );
}
