//! Every cross-attention head of Whisper tiny.en's decoder on clip 0880, and how much of each one's
//! weight lies near the path the alignment heads give
//! (`cargo run --release -p ch13-real-whisper --example heads -- [--save]`; `--save` writes
//! `measurements/heads.json`, which the page's figures are drawn from).

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::heads::{read, HeadsReading, NEAR};
use ch13_real_whisper::{files, Transcriber};
use support::cli::{flag_or_exit, or_exit};

fn main() {
    let save = flag_or_exit("--save", "usage: heads [--save]");
    let files = files::locate_or_exit();
    let transcriber = or_exit(Transcriber::load(&support::Dev::default(), &files));
    let reading = or_exit(read(&transcriber, &CLIPS[1]));
    println!(
        "clip {}: {} rows (tokens and the end), {} positions of speech; weight within {} positions ({} ms) of the path:",
        reading.clip,
        reading.rows(),
        reading.positions,
        NEAR,
        NEAR * 20
    );
    for layer in 0..4 {
        let row: Vec<String> = (reading.heads.iter().filter(|h| h.layer == layer))
            .map(|h| format!("{:.2}{}", reading.near_path(h), if h.alignment { "*" } else { " " }))
            .collect();
        println!("  layer {layer}: {}", row.join("  ").trim_end());
    }
    println!("  (* = an alignment head of config.json)");
    println!(
        "  a head that spread its weight evenly would have {:.2} there (the path is wider than one position on some rows)",
        reading.even_spread_near_path()
    );
    if save {
        let path = HeadsReading::path_of_file();
        let json = serde_json::to_string(&reading).expect("a reading serialises");
        or_exit(std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display())));
        println!("wrote {}", path.display());
    }
}
