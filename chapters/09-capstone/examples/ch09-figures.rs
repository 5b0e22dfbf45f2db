//! Writes this chapter's figures into the book: `cargo run -p ch09-capstone --example ch09-figures`
//! (or `cargo xtask figures` for every chapter). They are drawn from the committed
//! weights and report in `weights/`; nothing is trained.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch09_capstone::figures::all(&support::Dev::default()))
}
