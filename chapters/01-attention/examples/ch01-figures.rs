//! Writes this chapter's figures into the book: `cargo run -p ch01-attention --example ch01-figures`
//! (or `cargo xtask figures` for every chapter).
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch01_attention::figures::all(&support::Dev::default()))
}
