//! The figures in the book are exactly what this chapter's code draws from the committed
//! readings (deterministic).

use ch11_real_llm::figures;

support::book_figures_test!(figures::all());
