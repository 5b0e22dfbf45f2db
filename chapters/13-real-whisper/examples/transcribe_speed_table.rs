//! Writes the page's speed table and its summary from the committed comparisons
//! (`measurements/speed/*.json`): `measurements/speed.md` and `measurements/speed-summary.md`
//! (`cargo run --release -p ch13-real-whisper --example transcribe_speed_table`).

use ch13_real_whisper::speed_table::generated_files;
use support::cli::{args_or_exit, or_exit};

fn main() -> std::io::Result<()> {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: transcribe_speed_table (no arguments)"));
    }
    for (path, text) in generated_files() {
        std::fs::write(&path, text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
