//! Writes this chapter's figures into the book (`cargo xtask figures` runs every chapter's):
//! `cargo run -p ch14-modern-attention --example ch14-figures`.

use ch14_modern_attention::figures;

fn main() -> std::io::Result<()> {
    support::write_book_figures(&figures::all())
}
