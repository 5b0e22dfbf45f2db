//! Writes this chapter's figures into the book: `cargo run -p ch09-capstone --example ch09-figures`
//! (or `cargo xtask figures` for every chapter). They are drawn from the committed
//! weights and report in `weights/`; nothing is trained.
fn main() -> std::io::Result<()> {
    let dev = support::Dev::default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch09_capstone::figures::all(&dev) {
        svg.save(dir.join(name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
