//! Writes this chapter's figures into the book: `cargo run -p ch04-positions --example ch04-figures`.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch04_positions::figures::all())
}
