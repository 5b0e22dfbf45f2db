//! The figures in the book are exactly what this chapter's code draws from the committed weights and report
//! (deterministic).

support::book_figures_test!(ch09_capstone::figures::all(&support::Dev::default()));
