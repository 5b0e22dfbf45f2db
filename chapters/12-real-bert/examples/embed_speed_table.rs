//! Writes `measurements/speed.md`, the page's speed table, from the committed comparisons
//! (`cargo run --release -p ch12-real-bert --example embed_speed_table`).

use ch12_real_bert::speed_table;
use support::cli::or_exit;

fn main() {
    for (name, run) in speed_table::committed() {
        or_exit(run.check().map_err(|e| format!("measurements/speed/{name}.json: {e}")));
    }
    let tables = speed_table::tables();
    std::fs::write(speed_table::folder().with_extension("md"), &tables).expect("speed.md written");
    print!("{tables}");
}
