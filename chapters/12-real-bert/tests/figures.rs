//! The figures in the book are exactly what this chapter's code draws (deterministic).

use ch12_real_bert::figures;

support::book_figures_test!(figures::all());
