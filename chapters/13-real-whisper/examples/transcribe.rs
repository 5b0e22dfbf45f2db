//! Transcribes a WAV file (16 kHz, mono, 16-bit, at most 30 s) with Whisper tiny.en on the book's
//! code (the fast path), and with `--words` gives each word's start and end:
//! `cargo run --release -p ch13-real-whisper --example transcribe -- FILE.wav [--words]`.
//! A file Whisper cannot hear gets a one-line error and exit status 2.

use ch13_real_whisper::mel::Padding;
use ch13_real_whisper::wav::read_wav;
use ch13_real_whisper::{files, Transcriber};
use support::cli::{args_or_exit, or_exit};

const USAGE: &str = "usage: transcribe FILE.wav [--words] (16 kHz, mono, 16-bit PCM, at most 30 s)";

fn main() {
    let (path, words) = match args_or_exit().as_slice() {
        [path] if !path.starts_with("--") => (path.clone(), false),
        [path, flag] if !path.starts_with("--") && flag == "--words" => (path.clone(), true),
        _ => or_exit(Err(USAGE)),
    };
    let samples = or_exit(read_wav(std::path::Path::new(&path)));
    let files = files::locate_or_exit();
    let transcriber = or_exit(Transcriber::load(&support::Dev::default(), &files));
    let transcript = or_exit(transcriber.transcribe_fast(&samples, Padding::Zeros));
    println!("{}", transcript.text.trim());
    if words {
        for w in transcriber.words(&transcript) {
            println!("{:>6.2} {:>6.2}  {}", w.start, w.end, w.text.trim());
        }
    }
}
