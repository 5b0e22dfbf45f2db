//! The figures in the book are exactly what this chapter's code draws (seeded, deterministic).

support::book_figures_test!(ch02_qkv::figures::all(
    &support::Dev::default(),
    &support::seeded_device(0)
));
