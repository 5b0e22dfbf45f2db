//! Writes `measurements/speed.md`, the page's speed table, from the committed comparisons
//! (`cargo run --release -p ch11-real-llm --example speed_table`).

use ch11_real_llm::speed_table;

fn main() {
    for (name, run) in speed_table::committed() {
        if let Err(e) = run.check() {
            eprintln!("measurements/speed/{name}.json: {e}");
            std::process::exit(2);
        }
    }
    let path = speed_table::folder().with_extension("md");
    std::fs::write(&path, speed_table::tables()).expect("measurements/speed.md written");
    print!("{}", speed_table::tables());
}
