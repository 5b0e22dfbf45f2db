//! Chapter 13's Whisper in a real browser: the box in the chapter's page loads tiny.en into the
//! models' WebAssembly module in a worker and hears the chapter's five clips, giving the token ids
//! of the native `transcribe` (the fast path) and word times within 20 ms of the book's path
//! (`Transcriber::words`). The recording path (what the microphone's samples go through) hears a
//! clip at 16 kHz and the same clip resampled to 48 kHz, as natively; a silent and a too long
//! recording, and a WAV file at 44.1 kHz, get one line each.

use std::time::{Duration, Instant};

use super::cdp::{Browser, Tab};
use base64::Engine;
use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::mel::Padding;
use ch13_real_whisper::recording::{prepare, resample, RATE};
use ch13_real_whisper::transcribe::fast_alignment;
use ch13_real_whisper::{files, Transcriber};
use dfdx::tensor::Cpu;
use serde_json::Value;

use super::eval_json;
use super::screenshot::element_screenshot;

/// How far a word time in the page may be from the native one: one encoder position.
const WORD_TIME: f64 = 0.02;
/// Times each clip is heard, in the page and natively, for the committed measurements
/// (`web-models/measured/hear.md`); `ATTENTION_ROUNDS` sets another number. The suite hears each
/// clip once: what it checks (the same ids, the word times) is the same in every round.
const ROUNDS: usize = 3;

fn rounds() -> usize {
    match std::env::var("ATTENTION_ROUNDS") {
        Ok(n) => n.parse().ok().filter(|&n| n > 0).unwrap_or_else(|| {
            panic!("ATTENTION_ROUNDS={n:?}: give a whole number of rounds, 1 or more")
        }),
        Err(_) => ROUNDS,
    }
}

/// `median (fastest–slowest)` of times in milliseconds.
fn spread(ms: &[f64]) -> String {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (first, last) = (sorted[0], sorted[sorted.len() - 1]);
    format!("{:.0} ({first:.0}–{last:.0})", sorted[sorted.len() / 2])
}

fn wait_for(tab: &Tab, states: &[&str], limit: Duration) -> String {
    super::wait_for_state(tab, "ch13-hear", states, limit)
}

/// What the box shows after hearing: its state, token ids, words, time and status line.
fn shown(tab: &Tab) -> (String, Value) {
    let state = wait_for(tab, &["heard", "error"], Duration::from_secs(120));
    let shown = eval_json(
        tab,
        "JSON.stringify((b => ({ tokens: JSON.parse(b.dataset.tokens || 'null'),
            words: JSON.parse(b.dataset.words || 'null'), ms: Number(b.dataset.ms),
            text: b.querySelector('.hear-text').textContent,
            status: b.querySelector('.chat-status').textContent }))(document.getElementById('ch13-hear')))",
    );
    (state, shown)
}

/// Hears the chapter's clip `name` through the box's clip picker.
fn hear_clip(tab: &Tab, name: &str) -> (String, Value) {
    eval_json(tab, "(document.getElementById('ch13-hear').dataset.state = 'sent', '\"\"')");
    let js = format!(
        "(() => {{ const b = document.getElementById('ch13-hear');
            b.querySelector('select').value = {name:?};
            b.querySelector('.chat-row button').click(); return '\"\"'; }})()"
    );
    eval_json(tab, &js);
    shown(tab)
}

/// Hands `samples` at `rate` to the box's recording path, as the microphone's recorder does.
fn hear_recording(tab: &Tab, samples: &[f32], rate: u32) -> (String, Value) {
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    let js = format!(
        "(() => {{ const raw = atob('{encoded}'); const bytes = new Uint8Array(raw.length);
            for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
            const b = document.getElementById('ch13-hear'); b.dataset.state = 'sent';
            b.hearRecording(new Float32Array(bytes.buffer), {rate}); return '\"\"'; }})()"
    );
    eval_json(tab, &js);
    shown(tab)
}

fn ids(value: &Value) -> Vec<u32> {
    value.as_array().into_iter().flatten().filter_map(|i| i.as_u64().map(|v| v as u32)).collect()
}

/// The page's words against native ones: the same words, each time within [`WORD_TIME`]; the
/// largest difference.
fn compare_words(page: &Value, native: &[ch13_real_whisper::timing::Word]) -> Result<f64, String> {
    let page = page.as_array().cloned().unwrap_or_default();
    if page.len() != native.len() {
        return Err(format!("{} words in the page, {} natively", page.len(), native.len()));
    }
    let mut largest = 0.0f64;
    for (p, n) in page.iter().zip(native) {
        let (text, start, end) = (p[0].as_str(), p[1].as_f64(), p[2].as_f64());
        let (Some(text), Some(start), Some(end)) = (text, start, end) else {
            return Err(format!("the page's word {p}"));
        };
        if text != n.text {
            return Err(format!("the page's word {text:?}, natively {:?}", n.text));
        }
        largest = largest.max((start - n.start).abs()).max((end - n.end).abs());
    }
    if largest > WORD_TIME + 1e-9 {
        return Err(format!("word times {largest:.3} s from the native ones"));
    }
    Ok(largest)
}

/// The problems found, and a table of what was measured.
pub fn check_hear(tab: &Tab) -> (Vec<String>, String) {
    let mut problems = Vec::new();
    let files = files::locate().unwrap_or_else(|e| panic!("{e}"));
    // on the CPU, as the page runs it, even in a build with `cuda` (the model then stays here)
    let t = Transcriber::load(&Cpu::default(), &files).unwrap_or_else(|e| panic!("{e}"));
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    eval_json(tab, "document.querySelector('#ch13-hear > button').click(), '\"\"'");
    let state = wait_for(tab, &["loaded", "error", "absent"], Duration::from_secs(180));
    if state != "loaded" {
        let status = eval_json(
            tab,
            "JSON.stringify(document.querySelector('#ch13-hear .chat-status').textContent)",
        );
        problems.push(format!("the model did not load: {state}, {status}"));
        return (problems, String::new());
    }
    let load =
        eval_json(tab, "JSON.stringify(document.getElementById('ch13-hear').dataset.loadMs)");
    let rounds = rounds();
    let plural = if rounds == 1 { "" } else { "s" };
    let mut table = format!(
        "Measured by `browser::models::hearing_in_chromium_equals_native` on {}, headless chromium, \
         the book served from 127.0.0.1: each clip from its samples to its transcript and word \
         times, {rounds} round{plural}, in the page (the worker's WebAssembly, one thread, SIMD128) and \
         natively on one thread (the fast path on this CPU's widest vectors, `timed_fast` then \
         `fast_alignment`); times are the median (fastest–slowest). Word times are compared with \
         the book's path (`Transcriber::words`).\n\n\
         | clip | seconds | tokens | same ids | words | largest word-time difference (s) | page (ms) | native, one thread (ms) |\n\
         |---|---:|---:|---|---:|---:|---:|---:|\n",
        support::machine::describe()
    );
    for clip in CLIPS {
        let samples = clip.samples();
        let (mut page_ms, mut native_ms) = (Vec::new(), Vec::new());
        let (mut state, mut page) = (String::new(), Value::Null);
        let mut native = (Vec::new(), None);
        for _ in 0..rounds {
            (state, page) = hear_clip(tab, clip.file);
            page_ms.push(page["ms"].as_f64().unwrap_or(f64::NAN));
            let clock = Instant::now();
            native = one_thread.install(|| {
                let ((tokens, audio, frames), _) = t.timed_fast(&samples, Padding::Zeros).unwrap();
                let aligned =
                    fast_alignment(&t.fast, &t.tokenizer, &t.config, &tokens, &audio, frames);
                (tokens, Some(aligned))
            });
            native_ms.push(clock.elapsed().as_secs_f64() * 1e3);
            if ids(&page["tokens"]) != native.0 {
                break;
            }
        }
        let transcript = t.transcribe_fast(&samples, Padding::Zeros).unwrap();
        let same = state == "heard" && ids(&page["tokens"]) == transcript.tokens;
        if !same || native.0 != transcript.tokens {
            problems.push(format!(
                "clip {}: the page wrote {} ({state}, {}), native {:?}",
                clip.name(),
                page["tokens"],
                page["status"],
                transcript.tokens
            ));
        }
        let words = compare_words(&page["words"], &t.words(&transcript));
        if let Err(e) = &words {
            problems.push(format!("clip {}: {e}", clip.name()));
        }
        table += &format!(
            "| {} | {:.2} | {} | {} | {} | {} | {} | {} |\n",
            clip.name(),
            samples.len() as f64 / RATE as f64,
            transcript.tokens.len(),
            if same { "yes" } else { "no" },
            native.1.map_or(0, |a| a.words.len()),
            words.map_or("-".to_string(), |d| format!("{d:.2}")),
            spread(&page_ms),
            spread(&native_ms),
        );
    }
    problems.extend(check_recording_path(tab, &t));
    table += &format!(
        "\nThe model's files loaded from the server in {} ms",
        load.as_str().unwrap_or("?")
    );
    (problems, table)
}

/// The recording path: a clip's samples at 16 kHz and resampled to 48 kHz give the native
/// transcripts of the same samples; silence and 31 seconds get their lines.
fn check_recording_path(tab: &Tab, t: &Transcriber<Cpu>) -> Vec<String> {
    let mut problems = Vec::new();
    let clip = CLIPS[1].samples();
    let high = resample(&clip, RATE, 48_000);
    for (samples, rate) in [(&clip, RATE), (&high, 48_000)] {
        let (state, page) = hear_recording(tab, samples, rate);
        let heard = prepare(samples, rate as f32).unwrap();
        let native = t.transcribe_fast(&heard, Padding::Zeros).unwrap();
        if state != "heard" || ids(&page["tokens"]) != native.tokens {
            problems.push(format!(
                "a recording at {rate} Hz: the page wrote {} ({state}, {}), native {:?}",
                page["tokens"], page["status"], native.tokens
            ));
        }
        if let Err(e) = compare_words(&page["words"], &t.words(&native)) {
            problems.push(format!("a recording at {rate} Hz: {e}"));
        }
    }
    let noise: Vec<f32> =
        (0..31 * RATE).map(|i| 0.1 * ((i * 7_919 % 97) as f32 / 48.0 - 1.0)).collect();
    let bad: [(Vec<f32>, u32); 2] = [(vec![0.0; 48_000], 48_000), (noise, RATE)];
    for (samples, rate) in bad {
        let (state, page) = hear_recording(tab, &samples, rate);
        let expected = prepare(&samples, rate as f32).unwrap_err();
        if state != "error" || page["status"].as_str() != Some(expected.as_str()) {
            problems.push(format!("expected {expected:?}, the page: {state}, {}", page["status"]));
        }
    }
    // a WAV file at 44.1 kHz, through the clips' and files' path: the reader's one line
    let mut wav = ch13_real_whisper::wav::wav_bytes(&[1_000; 4_410]);
    wav[24..28].copy_from_slice(&44_100u32.to_le_bytes());
    wav[28..32].copy_from_slice(&88_200u32.to_le_bytes());
    let expected = ch13_real_whisper::wav::parse_wav(&wav).unwrap_err().to_string();
    let js = format!(
        "(() => {{ const b = document.getElementById('ch13-hear'); b.dataset.state = 'sent';
            b.hearWav(new Uint8Array({wav:?}).buffer); return '\"\"'; }})()"
    );
    eval_json(tab, &js);
    let (state, page) = shown(tab);
    if state != "error" || page["status"].as_str() != Some(expected.as_str()) {
        problems.push(format!("expected {expected:?}, the page: {state}, {}", page["status"]));
    }
    problems
}

/// The box after a clip, at desktop width on `tab` and on a phone's screen in a new tab of
/// `browser` (the model from the browser's cache); what is wrong with the phone's layout.
pub fn hear_screenshots(browser: &Browser, tab: &Tab, url: &str) -> (Vec<String>, String) {
    let shots = workspace_tools::workspace_root().join("target/book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    hear_clip(tab, CLIPS[1].file);
    std::fs::write(shots.join("hear.png"), element_screenshot(tab, "#ch13-hear")).unwrap();
    let (phone, load, mut problems) = super::models::phone_visit(browser, url, "ch13-hear");
    hear_clip(&phone, CLIPS[1].file);
    problems.extend(super::models::phone_fits(&phone, "ch13-hear", "hear-phone.png"));
    (problems, format!("{load} ms"))
}
