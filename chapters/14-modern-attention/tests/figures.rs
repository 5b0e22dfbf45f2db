//! The figures in the book are exactly what this chapter's code draws (deterministic).

use ch14_modern_attention::figures;

support::book_figures_test!(figures::all());
