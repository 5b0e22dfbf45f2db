//! The figures in the book are exactly what this chapter's code draws (deterministic).

support::book_figures_test!(ch05_blocks::figures::all());
