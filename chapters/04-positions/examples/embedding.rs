//! How large scaled token embeddings are next to the positional table, under three
//! initialisations of the embedding table.
//!
//! `cargo run -p ch04-positions --example embedding`
use ch04_positions::scale;

fn main() {
    let s = scale::measure(&support::seeded_device(0));
    println!("RMS of an entry, vocabulary 1000, d_model 128:");
    println!("positional table (200 positions)              {:5.2}", s.positions);
    println!("embedding x sqrt(d_model), table initialised");
    println!("  N(0, 1), PyTorch's nn.Embedding             {:5.2}", s.torch_normal);
    println!("  N(0, 1/d_model)                             {:5.2}", s.unit_variance);
    println!("  U(-1/sqrt(vocab), 1/sqrt(vocab)), dfdx's    {:5.2}", s.dfdx_uniform);
}
