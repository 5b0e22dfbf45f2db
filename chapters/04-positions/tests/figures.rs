//! The figures in the book are exactly what this chapter's code draws (deterministic).
#[test]
fn book_figures_are_current() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/figures");
    support::assert_figures_current(dir, &ch04_positions::figures::all());
}
