//! Writes `measurements/speed.md` and `measurements/speed-profile.md`, the page's speed table and
//! its profile of one decode step, from the committed comparisons
//! (`cargo run --release -p ch11-real-llm --example speed_table`).

use ch11_real_llm::speed_table;
use support::cli::or_exit;

fn main() {
    for (name, run) in speed_table::committed() {
        or_exit(run.check().map_err(|e| format!("measurements/speed/{name}.json: {e}")));
    }
    let folder = speed_table::folder();
    std::fs::write(folder.with_extension("md"), speed_table::tables()).expect("speed.md written");
    let profile = folder.with_file_name("speed-profile.md");
    std::fs::write(profile, speed_table::profiles()).expect("speed-profile.md written");
    print!("{}\n{}", speed_table::tables(), speed_table::profiles());
}
