//! Writes this chapter's figures into the book (`cargo xtask figures` runs every chapter's):
//! `cargo run -p ch13-real-whisper --example ch13-figures`.

use ch13_real_whisper::figures;

fn main() -> std::io::Result<()> {
    support::write_book_figures(&figures::all())
}
