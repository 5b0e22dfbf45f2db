//! Writes this chapter's figures into the book (`cargo xtask figures` runs every chapter's):
//! `cargo run -p ch11-real-llm --example ch11-figures`.

use ch11_real_llm::figures;

fn main() -> std::io::Result<()> {
    support::write_book_figures(&figures::all())
}
