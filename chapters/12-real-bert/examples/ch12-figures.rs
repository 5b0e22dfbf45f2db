//! Writes this chapter's figures into the book (`cargo xtask figures` runs every chapter's):
//! `cargo run -p ch12-real-bert --example ch12-figures`.

use ch12_real_bert::figures;

fn main() -> std::io::Result<()> {
    support::write_book_figures(&figures::all())
}
