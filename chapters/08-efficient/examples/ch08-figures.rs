//! Writes this chapter's figures into the book: `cargo run -p ch08-efficient --example ch08-figures`
//! (or `cargo xtask figures` for every chapter). The measured ones are drawn from the committed
//! `bench/results.json`; nothing is timed here.
fn main() -> std::io::Result<()> {
    let dev = support::Dev::default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/figures");
    for (name, svg) in ch08_efficient::figures::all(&dev) {
        svg.save(dir.join(name))?;
        println!("wrote book/src/figures/{name}");
    }
    Ok(())
}
