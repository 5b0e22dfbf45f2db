//! Writes this chapter's figures into the book: `cargo run -p ch07-vit --example ch07-figures`
//! (or `cargo xtask figures` for every chapter). They are drawn from the committed weights and
//! reports in `weights/`; nothing is trained.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch07_vit::figures::all(&support::Dev::default()))
}
