//! The figures in the book are exactly what this chapter's code draws from the committed weights
//! and reports (deterministic).

support::book_figures_test!(ch07_vit::figures::all(&support::Dev::default()));
