//! Writes `measurements/speed.md`, the page's speed table, from the committed comparisons
//! (`cargo run --release -p ch12-real-bert --example embed_speed_table`).

use ch12_real_bert::speed_table;

fn main() {
    for (name, run) in speed_table::committed() {
        if let Err(e) = run.check() {
            eprintln!("measurements/speed/{name}.json: {e}");
            std::process::exit(2);
        }
    }
    let tables = speed_table::tables();
    std::fs::write(speed_table::folder().with_extension("md"), &tables).expect("speed.md written");
    print!("{tables}");
}
