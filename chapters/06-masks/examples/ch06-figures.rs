//! Writes this chapter's figures into the book: `cargo run -p ch06-masks --example ch06-figures`.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch06_masks::figures::all())
}
