//! Writes this chapter's figures into the book: `cargo run -p ch10-language-models --example
//! ch10-figures` (or `cargo xtask figures` for every chapter). They are drawn from the committed
//! weights, text and measurements; nothing is trained or timed.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch10_language_models::figures::all(&support::Dev::default()))
}
