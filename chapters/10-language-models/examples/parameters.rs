//! The tiny model's parameter table, as the page shows it: each part's formula from the model's
//! sizes, its count, and the total (`cargo run -p ch10-language-models --example parameters`).

use ch10_language_models::llama::config::TINY;
use ch10_language_models::llama::params::parameter_table;

fn main() {
    print!("{}", parameter_table(TINY).markdown());
}
