//! Writes this chapter's figures into the book: `cargo run -p ch04-positions --example ch04-figures`.
fn main() -> std::io::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch04_positions::figures::all() {
        svg.save(dir.join(name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
