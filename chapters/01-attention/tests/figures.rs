//! The figures in the book are exactly what this chapter's code draws (seeded, deterministic).

support::book_figures_test!(ch01_attention::figures::all(&support::Dev::default()));
