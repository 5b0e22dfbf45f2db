//! Writes this chapter's figures into the book: `cargo run -p ch05-blocks --example ch05-figures`.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch05_blocks::figures::all())
}
