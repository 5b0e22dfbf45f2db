//! The figures in the book are exactly what this chapter's code draws from the committed weights and report
//! (deterministic).
#[test]
#[cfg_attr(
    feature = "cuda",
    ignore = "the committed figures are drawn on the CPU; GPU arithmetic may differ in the last bits"
)]
fn book_figures_are_current() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/figures");
    support::assert_figures_current(dir, &ch09_capstone::figures::all(&support::Dev::default()));
}
