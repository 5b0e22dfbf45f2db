//! Writes this chapter's figures into the book: `cargo run -p ch02-qkv --example ch02-figures`.
fn main() -> std::io::Result<()> {
    let dev = support::Dev::default();
    let seeded = support::seeded_device(0);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch02_qkv::figures::all(&dev, &seeded) {
        svg.save(dir.join(name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
