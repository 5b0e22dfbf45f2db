//! Whisper tiny.en's transcript of each of the chapter's five clips, on the book's code, next to
//! what the reader said (`cargo run --release -p ch13-real-whisper --example clips`).

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::{files, Transcriber};
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: clips (no arguments)"));
    }
    let files = files::locate_or_exit();
    let transcriber = or_exit(Transcriber::load(&support::Dev::default(), &files));
    for clip in CLIPS {
        let samples = clip.samples();
        let transcript = or_exit(transcriber.transcribe(&samples));
        println!(
            "clip {} ({:.2} s, {} tokens)",
            clip.name(),
            samples.len() as f64 / 16_000.0,
            transcript.tokens.len()
        );
        println!("  heard: {}", transcript.text.trim());
        println!("  said:  {}", clip.said);
    }
}
