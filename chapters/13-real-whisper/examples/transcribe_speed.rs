//! One round of the speed comparison: the five clips transcribed on the fast path and on the
//! book's blocks (dfdx), after one untimed transcription of each, with the fast path's time
//! stage by stage (`cargo run --release -p ch13-real-whisper --example transcribe_speed -- [--json]`;
//! `compare/compare_speed.py` runs it in alternating rounds with transformers and
//! faster-whisper). Prints what it measured, or one JSON line with `--json`.

use std::time::Instant;

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::mel::Padding;
use ch13_real_whisper::speed::Stages;
use ch13_real_whisper::{files, Transcriber};
use support::cli::{flag_or_exit, or_exit};

fn main() {
    let json = flag_or_exit("--json", "usage: transcribe_speed [--json]");
    let files = files::locate_or_exit();
    let t = or_exit(Transcriber::load(&support::Dev::default(), &files));
    let clips: Vec<Vec<f32>> = CLIPS.iter().map(|c| c.samples()).collect();
    let audio: f64 = clips.iter().map(|s| s.len() as f64 / 16_000.0).sum();
    // one untimed pass of each path
    let warm = or_exit(t.transcribe(&clips[0]));
    or_exit(t.timed_fast(&clips[0], Padding::Zeros));
    let (mut stages, mut texts) = (Stages::default(), Vec::new());
    for samples in &clips {
        let ((tokens, _, _), s) = or_exit(t.timed_fast(samples, Padding::Zeros));
        stages = stages.plus(s);
        texts.push(t.tokenizer.text(&tokens));
    }
    let clock = Instant::now();
    for samples in &clips {
        or_exit(t.transcribe(samples));
    }
    let blocks = clock.elapsed().as_secs_f64();
    assert_eq!(t.tokenizer.text(&warm.tokens), texts[0]);
    let machine = support::machine::describe();
    if json {
        let line = serde_json::json!({
            "machine": machine,
            "isa": t.fast.isa.name(),
            "clips": clips.len(),
            "audio_seconds": audio,
            "texts": texts,
            "programs": [
                {"program": "fast path", "seconds": stages.total(), "stages": stages},
                {"program": "chapter 5's blocks (dfdx)", "seconds": blocks},
            ],
        });
        println!("{line}");
    } else {
        println!(
            "{} clips, {audio:.2} s of speech, on {machine} ({})",
            clips.len(),
            t.fast.isa.name()
        );
        println!(
            "  fast path:  {:.3} s (real-time factor {:.4})",
            stages.total(),
            stages.total() / audio
        );
        println!(
            "    spectrogram {:.3} s, encoder {:.3} s, cross-attention keys {:.3} s, decoding {:.3} s",
            stages.spectrogram, stages.encoder, stages.cross, stages.decoding
        );
        println!("  chapter 5's blocks: {blocks:.3} s (real-time factor {:.4})", blocks / audio);
    }
}
