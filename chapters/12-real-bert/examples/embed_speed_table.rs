//! Writes `measurements/speed.md` (the page's speed tables) and `measurements/speed-summary.md`
//! (the sentence that sums them up) from the committed comparisons
//! (`cargo run --release -p ch12-real-bert --example embed_speed_table`).

use ch12_real_bert::speed_table;
use support::cli::or_exit;

fn main() {
    for (name, run) in speed_table::committed() {
        or_exit(run.check().map_err(|e| format!("measurements/speed/{name}.json: {e}")));
    }
    for (path, text) in speed_table::generated_files() {
        or_exit(std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display())));
        print!("{text}");
    }
}
