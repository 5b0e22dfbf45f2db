//! The quadratic cost of dense attention: scores per head and their memory.

use ch08_efficient::cost::{
    bytes_per_head, bytes_per_model, human, scores_per_head, Precision, HEADS_32_LAYERS_24,
};

fn main() {
    // ANCHOR: cost_table
    println!(
        "{:>8} {:>16} {:>10} {:>10} {:>16}",
        "n", "scores / head", "f32", "f16", "f16, 32x24 heads"
    );
    for n in [512, 4_096, 8_192, 16_384, 100_000] {
        let (f32_head, f16_head) =
            (bytes_per_head(n, Precision::F32), bytes_per_head(n, Precision::F16));
        let model = bytes_per_model(n, Precision::F16, HEADS_32_LAYERS_24);
        println!(
            "{n:>8} {:>16} {:>10} {:>10} {:>16}",
            scores_per_head(n),
            human(f32_head),
            human(f16_head),
            human(model)
        );
    }
    // ANCHOR_END: cost_table
}
