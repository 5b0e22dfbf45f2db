//! Writes this chapter's figures into the book: `cargo run -p ch01-attention --example ch01-figures`
//! (or `cargo xtask figures` for every chapter).
fn main() -> std::io::Result<()> {
    let dev = support::Dev::default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch01_attention::figures::all(&dev) {
        svg.save(dir.join(name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
