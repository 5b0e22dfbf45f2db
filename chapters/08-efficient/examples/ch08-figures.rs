//! Writes this chapter's figures into the book: `cargo run -p ch08-efficient --example ch08-figures`
//! (or `cargo xtask figures` for every chapter). The measured ones are drawn from the committed
//! `measurements/results.json`; nothing is timed here.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch08_efficient::figures::all(&support::Dev::default()))
}
