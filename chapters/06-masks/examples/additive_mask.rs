//! `nn.Transformer.generate_square_subsequent_mask(5)`: the causal mask as an additive float mask:
//! `cargo run -p ch06-masks --example additive_mask`.
use ch06_masks::square_subsequent_mask;
use support::format_tensor;

fn main() {
    let dev = support::Dev::default();
    // ANCHOR: additive
    let float_mask = square_subsequent_mask(&dev, 5);
    println!("PyTorch causal mask (float):");
    println!("{}", format_tensor(&float_mask, 1));
    // ANCHOR_END: additive
}
