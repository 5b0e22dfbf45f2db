//! The figures in the book are exactly what this chapter's code draws from the committed weights,
//! text and measurements (deterministic).

support::book_figures_test!(ch10_language_models::figures::all(&support::Dev::default()));
