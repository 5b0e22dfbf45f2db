//! Writes this chapter's figures into the book: `cargo run -p ch03-multi-head --example ch03-figures`.
fn main() -> std::io::Result<()> {
    let dev = support::seeded_device(0);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch03_multi_head::figures::all(&dev) {
        svg.save(dir.join(&name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
