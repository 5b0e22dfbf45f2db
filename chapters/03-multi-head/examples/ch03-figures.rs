//! Writes this chapter's figures into the book: `cargo run -p ch03-multi-head --example ch03-figures`.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch03_multi_head::figures::all())
}
