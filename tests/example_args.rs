//! Every example reads its command line through `support::cli` (`args_or_exit`, `flag_or_exit`),
//! and every example that takes arguments, run as a real program with one that is not UTF-8,
//! refuses it in one line on stderr with exit status 2 (where `std::env::args` panics, exit 101
//! and a backtrace). They refuse it before they open a model file, so this runs without them.
//! And a hostile file: chapter 11's `gguf_info`, given arrays nested a million deep, prints one
//! line and exits with status 2 (before its reader had a depth limit, it overflowed its stack:
//! exit 134, no message of its own).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use workspace_tools::{outputs, workspace_root, Chapter};

/// Calls that read the command line; only `support::cli` may make them.
const RAW_READS: [&str; 2] = ["env::args()", "env::args_os()"];

/// Calls of `support::cli` that read the command line.
const CLI_READS: [&str; 2] = ["args_or_exit()", "flag_or_exit("];

/// The examples that take arguments, as (package, example), and those that read them otherwise.
fn examples_reading_arguments() -> (Vec<(String, String)>, Vec<String>) {
    let (mut reading, mut raw) = (Vec::new(), Vec::new());
    for chapter in Chapter::all(&workspace_root()).unwrap() {
        for example in chapter.examples() {
            let path = chapter.dir.join("examples").join(format!("{example}.rs"));
            let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
            if RAW_READS.iter().any(|call| source.contains(call)) {
                raw.push(format!("{}/examples/{example}.rs", chapter.slug.as_str()));
            }
            if CLI_READS.iter().any(|call| source.contains(call)) {
                reading.push((chapter.package.clone(), example));
            }
        }
    }
    (reading, raw)
}

#[test]
fn examples_read_their_arguments_through_support_cli() {
    let (reading, raw) = examples_reading_arguments();
    assert!(
        raw.is_empty(),
        "{raw:?} read the command line with std::env: use support::cli::args_or_exit (one line \
         and exit status 2 on an argument that is not UTF-8, where std::env::args panics)"
    );
    // the examples of the book's printed outputs that take arguments are among them
    let outputs = Chapter::all_outputs(&workspace_root()).unwrap();
    for o in outputs.iter().filter(|o| !o.args.is_empty()) {
        let named = (o.package.clone(), o.example.clone());
        assert!(
            reading.contains(&named),
            "{} takes arguments but is not found reading them",
            o.example
        );
    }
}

/// Waits for `child` at most `limit`; kills it after that.
fn wait_at_most(mut child: std::process::Child, limit: Duration) -> Option<std::process::Output> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().expect("wait for the example").is_some() {
            return Some(child.wait_with_output().expect("read what it printed"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn an_argument_that_is_not_utf8_is_refused_in_one_line_with_status_2() {
    let root = workspace_root();
    let (reading, _) = examples_reading_arguments();
    assert!(reading.len() >= 10, "only {} examples take arguments: {reading:?}", reading.len());
    let names = reading.iter().map(|(_, example)| example.as_str());
    let programs = outputs::Programs::build(&root, names).unwrap_or_else(|e| panic!("{e:#}"));
    let mut wrong = Vec::new();
    for (package, example) in &reading {
        let program = programs.get(example).unwrap_or_else(|| panic!("no program for {example}"));
        let child = Command::new(program)
            .current_dir(&root)
            .arg(OsStr::from_bytes(b"caf\xE9 \xFF"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
        let Some(out) = wait_at_most(child, Duration::from_secs(60)) else {
            wrong.push(format!("{package} {example}: still running after 60 s"));
            continue;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        let refused = out.status.code() == Some(2)
            && out.stdout.is_empty()
            && stderr.lines().count() == 1
            && stderr.starts_with("argument 1 is not UTF-8 text (\"caf\u{FFFD} \u{FFFD}\"");
        if !refused {
            wrong.push(format!(
                "{package} {example}: {}, stdout {:?}, stderr {stderr:?}",
                out.status,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    assert!(wrong.is_empty(), "not refused in one line with exit status 2:\n{}", wrong.join("\n"));
}

#[test]
fn gguf_info_refuses_arrays_nested_a_million_deep_in_one_line() {
    let root = workspace_root();
    let programs =
        outputs::Programs::build(&root, ["gguf_info"]).unwrap_or_else(|e| panic!("{e:#}"));
    let program = programs.get("gguf_info").expect("chapter 11's gguf_info");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested-1e6.gguf");
    std::fs::write(&path, ch11_real_llm::gguf::write::nested_arrays("deep", 1_000_000)).unwrap();
    let child = Command::new(program)
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let out = wait_at_most(child, Duration::from_secs(60)).expect("gguf_info ends within 60 s");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let want = format!(
        "{}: metadata \"deep\": arrays nested more than 8 levels deep (this reader's limit)\n",
        path.display()
    );
    assert_eq!((out.status.code(), out.stdout.as_slice(), stderr), (Some(2), &b""[..], want));
    // more than one file, or a flag: its usage, in one line
    for args in [&["a", "b"][..], &["--bogus"]] {
        let out = Command::new(program).args(args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let usage = "usage: gguf_info [FILE] (one GGUF file; by default SmolLM2's)\n";
        assert_eq!((out.status.code(), stderr.as_str()), (Some(2), usage), "{args:?}");
    }
}

/// Chapter 13's `transcribe` refuses, in one line and with exit status 2, every file Whisper
/// cannot hear: another sample rate, stereo, no samples, not a WAV file, no file at all. It reads
/// the file before the model, so this runs without the model; and `model_bin` refuses a file cut
/// short.
#[test]
fn transcribe_refuses_what_whisper_cannot_hear_in_one_line() {
    use ch13_real_whisper::wav::wav_bytes;
    let root = workspace_root();
    let programs = outputs::Programs::build(&root, ["transcribe", "model_bin"])
        .unwrap_or_else(|e| panic!("{e:#}"));
    let program = programs.get("transcribe").expect("chapter 13's transcribe");
    let dir = tempfile::tempdir().unwrap();
    let with_format = |channels: u16, rate: u32| {
        let mut bytes = wav_bytes(&[1, 2, 3, 4]);
        bytes[22..24].copy_from_slice(&channels.to_le_bytes());
        bytes[24..28].copy_from_slice(&rate.to_le_bytes());
        bytes
    };
    let want = "Whisper hears 16-bit PCM, mono, 16000 Hz (ffmpeg -i IN -ac 1 -ar 16000 -c:a \
                pcm_s16le OUT.wav)";
    let cases = [
        ("44k.wav", with_format(1, 44_100), format!("the WAV file is sampled at 44100 Hz; {want}")),
        ("stereo.wav", with_format(2, 16_000), format!("the WAV file has 2 channels; {want}")),
        ("empty.wav", wav_bytes(&[]), "the WAV file holds no samples".to_string()),
        (
            "song.mp3",
            b"ID3\x04\x00 not a wave".to_vec(),
            format!("not a WAV file (no RIFF/WAVE header); {want}"),
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = Command::new(program).arg(&path).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let expected = format!("{}: {message}\n", path.display());
        assert_eq!(
            (out.status.code(), out.stdout.as_slice(), stderr),
            (Some(2), &b""[..], expected)
        );
    }
    let missing = dir.path().join("nothing.wav");
    let out = Command::new(program).arg(&missing).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.starts_with(&format!("{}: ", missing.display())) && stderr.lines().count() == 1);
    for args in [&[][..], &["a.wav", "--bogus"], &["--words"]] {
        let out = Command::new(program).args(args).stdin(Stdio::null()).output().unwrap();
        let usage =
            "usage: transcribe FILE.wav [--words] (16 kHz, mono, 16-bit PCM, at most 30 s)\n";
        assert_eq!(
            (out.status.code(), String::from_utf8(out.stderr).unwrap().as_str()),
            (Some(2), usage)
        );
    }
    let model_bin = programs.get("model_bin").expect("chapter 13's model_bin");
    let cut = dir.path().join("cut.bin");
    std::fs::write(&cut, &6u32.to_le_bytes()[..3]).unwrap();
    let out = Command::new(model_bin).arg(&cut).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let expected = format!(
        "{}: the file ends inside the format version: 4 bytes needed at byte 0\n",
        cut.display()
    );
    assert_eq!((out.status.code(), stderr), (Some(2), expected));
}
