//! The figures in the book are exactly what this chapter's code draws (deterministic).

use ch13_real_whisper::figures;

support::book_figures_test!(figures::all());
