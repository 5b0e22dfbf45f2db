//! Writes this chapter's figures into the book: `cargo run -p ch02-qkv --example ch02-figures`.
fn main() -> std::io::Result<()> {
    support::write_book_figures(&ch02_qkv::figures::all(
        &support::Dev::default(),
        &support::seeded_device(0),
    ))
}
