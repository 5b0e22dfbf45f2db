//! The reversal model's parameter table, as the page shows it: each part's formula from the model's
//! sizes, its count, and the total (`cargo run -p ch09-capstone --example reverser_parameters`).

use ch09_capstone::model::parameter_table;

fn main() {
    print!("{}", parameter_table().markdown());
}
