//! The figures in the book are exactly what this chapter's code draws from the committed benchmark results
//! (deterministic).

support::book_figures_test!(ch08_efficient::figures::all(&support::Dev::default()));
