//! Writes the attention explorer's data, `book/src/explorer/reversal.json`, from the committed
//! model: `cargo run --release -p ch09-capstone --example explorer_data` (or `cargo xtask explorer`).
//! The page inlines the file when the book is built; `tests/explorer.rs` checks it is current.

use ch09_capstone::explorer::{export, to_json};
use ch09_capstone::trained::try_load_model;
use support::Dev;

/// Where the book's page finds the file (it includes it from `explorer/widget.html`).
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/explorer/reversal.json");

fn main() {
    let dev = Dev::default();
    let model = try_load_model(&dev).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    let explorer = export(&model, &dev);
    let text = to_json(&explorer);
    let path = std::path::Path::new(OUT);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("create book/src/explorer");
    std::fs::write(path, &text).unwrap_or_else(|e| panic!("{OUT}: {e}"));
    let wrong = explorer.examples.iter().filter(|e| !e.correct).count();
    println!(
        "book/src/explorer/reversal.json: {} sequences ({wrong} answered wrong), {} bytes",
        explorer.examples.len(),
        text.len()
    );
}
