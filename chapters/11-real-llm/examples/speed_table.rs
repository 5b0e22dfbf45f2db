//! Writes `measurements/speed.md` and `measurements/speed-profile.md`, the page's speed table and
//! its profile of one decode step, from the committed comparisons
//! (`cargo run --release -p ch11-real-llm --example speed_table`).

use ch11_real_llm::speed_table;
use support::cli::or_exit;

fn main() {
    for (name, run) in speed_table::committed() {
        or_exit(run.check().map_err(|e| format!("measurements/speed/{name}.json: {e}")));
    }
    let [(tables, table), (profiles, profile)] = speed_table::generated_files();
    for (path, text) in [(tables, &table), (profiles, &profile)] {
        or_exit(std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display())));
    }
    print!("{table}\n{profile}");
}
