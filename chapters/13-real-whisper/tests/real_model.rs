//! Whisper tiny.en from its published files, loaded once per test binary: the file, the
//! tokenizer, and the transcripts of the five clips against faster-whisper's
//! (`fixtures/transcripts.json`, made by `fixtures/make_transcripts.py`).

use ch13_real_whisper::clips::CLIPS;
use ch13_real_whisper::ct2::{DType, ModelBin};
use ch13_real_whisper::mel::Padding;
use ch13_real_whisper::model::load::parameter_count;
use ch13_real_whisper::model::sinusoids;
use ch13_real_whisper::{files, Transcriber, Transcript};
use serde::Deserialize;
use support::Dev;

fn model_files() -> ch13_real_whisper::ModelFiles {
    files::locate().unwrap_or_else(|e| panic!("{e}"))
}

fn load() -> Transcriber<Dev> {
    Transcriber::load(&Dev::default(), &model_files()).unwrap_or_else(|e| panic!("{e}"))
}

/// The model with its tokenizer, as published.
#[cfg(not(feature = "cuda"))]
pub fn transcriber() -> &'static Transcriber<Dev> {
    static MODEL: std::sync::OnceLock<Transcriber<Dev>> = std::sync::OnceLock::new();
    MODEL.get_or_init(load)
}

/// On the GPU each test loads its own: dfdx's CUDA device is not `Sync`.
#[cfg(feature = "cuda")]
pub fn transcriber() -> &'static Transcriber<Dev> {
    Box::leak(Box::new(load()))
}

/// The book's path's transcript of `CLIPS[clip]` padded as `padding` says, made once per test
/// binary: the transcripts', the word times' and the fast path's tests read the same ones.
#[cfg(not(feature = "cuda"))]
pub fn transcript(clip: usize, padding: Padding) -> &'static Transcript<Dev> {
    use std::sync::OnceLock;
    type Made = [OnceLock<Transcript<Dev>>; CLIPS.len()];
    static ZEROS: Made = [const { OnceLock::new() }; CLIPS.len()];
    static SILENCE: Made = [const { OnceLock::new() }; CLIPS.len()];
    let made = match padding {
        Padding::Zeros => &ZEROS,
        Padding::Silence => &SILENCE,
    };
    made[clip].get_or_init(|| transcribe(clip, padding))
}

/// On the GPU each test makes its own, as it loads its own model.
#[cfg(feature = "cuda")]
pub fn transcript(clip: usize, padding: Padding) -> &'static Transcript<Dev> {
    Box::leak(Box::new(transcribe(clip, padding)))
}

fn transcribe(clip: usize, padding: Padding) -> Transcript<Dev> {
    let samples = CLIPS[clip].samples();
    transcriber().transcribe_padded(&samples, padding).unwrap_or_else(|e| panic!("{e}"))
}

/// One clip as faster-whisper transcribed it.
#[derive(Deserialize)]
pub struct Reference {
    pub file: String,
    pub samples: usize,
    pub tokens: Vec<u32>,
    pub text: String,
    pub timed_segments: Vec<TimedSegment>,
}

/// A segment of faster-whisper's run with word times.
#[derive(Deserialize)]
pub struct TimedSegment {
    pub start: f64,
    pub tokens: Vec<u32>,
    pub text: String,
    pub words: Vec<TimedWord>,
}

/// A word with faster-whisper's times.
#[derive(Deserialize)]
pub struct TimedWord {
    pub word: String,
    pub start: f64,
    pub end: f64,
}

#[derive(Deserialize)]
struct Fixture {
    faster_whisper: String,
    compute_type: String,
    clips: Vec<Reference>,
}

/// faster-whisper's transcripts, in the order of [`CLIPS`].
pub fn references() -> Vec<Reference> {
    let fixture: Fixture =
        serde_json::from_str(include_str!("../fixtures/transcripts.json")).unwrap();
    assert_eq!(
        (fixture.faster_whisper.as_str(), fixture.compute_type.as_str()),
        ("1.2.1", "float32")
    );
    let files: Vec<&str> = fixture.clips.iter().map(|c| c.file.as_str()).collect();
    assert_eq!(files, CLIPS.map(|c| c.file));
    fixture.clips
}

#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_file_holds_tiny_en_in_float16() {
    let bin = ModelBin::read(&model_files().path("model.bin")).unwrap();
    assert_eq!((bin.version, bin.spec.as_str(), bin.revision), (6, "WhisperSpec", 3));
    assert_eq!((bin.variables.len(), bin.aliases.len()), (148, 1));
    assert_eq!(bin.parameters(), 37_764_864);
    // of which Whisper learned 37.2 million: the file also holds the encoder's fixed sinusoids
    // and the zeros CTranslate2 stored for the 12 key projections' bias (8 self, 4 cross)
    let count = parameter_count(&bin).unwrap();
    assert_eq!((count.sinusoids, count.zero_key_biases), (1500 * 384, 12 * 384));
    assert_eq!(count.learned, 37_184_256);
    let millions = |n: usize| format!("{:.1}", n as f64 / 1e6);
    assert_eq!((millions(count.stored), millions(count.learned)), ("37.8".into(), "37.2".into()));
    // openai-whisper's README lists tiny at "39 M", more than either count
    assert!(count.stored < 39_000_000);
    let tensors = bin.variables.iter().filter(|v| !v.shape.is_empty());
    assert!(tensors.clone().all(|v| v.dtype == DType::F16));
    assert_eq!(tensors.count(), 139);
    // Whisper's key projections have no bias: CTranslate2 fused them with zeros
    for name in (0..4).flat_map(|i| {
        [format!("encoder/layer_{i}/self_attention"), format!("decoder/layer_{i}/self_attention")]
    }) {
        let bias = bin.f32s(&format!("{name}/linear_0/bias"), &[1152]).unwrap();
        assert!(bias[384..768].iter().all(|&b| b == 0.0), "{name}");
        assert!(bias[..384].iter().any(|&b| b != 0.0), "{name}");
    }
    let cross = bin.f32s("decoder/layer_0/attention/linear_1/bias", &[768]).unwrap();
    assert!(cross[..384].iter().all(|&b| b == 0.0) && cross[384..].iter().any(|&b| b != 0.0));
}

/// The stored audio positions are [`sinusoids`] rounded to float16: each of the 576,000 stored
/// values is exactly the float16 nearest to the sinusoid computed here, and some differ from it by
/// up to half a float16 step (2^-12 for the values of magnitude 0.5 to 1).
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_audio_positions_are_sinusoids_in_float16() {
    use half::f16;
    let stored = transcriber().model.audio_positions.as_vec();
    let computed = sinusoids(1500, 384);
    assert_eq!(stored.len(), 576_000);
    for (i, (&s, &c)) in stored.iter().zip(&computed).enumerate() {
        assert_eq!(s, f16::from_f32(c).to_f32(), "value {i}: {c} rounds to another float16");
    }
    let largest = stored.iter().zip(&computed).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(largest <= 2f32.powi(-12) && largest > 2f32.powi(-13), "{largest}");
}

/// The tokenizer's 51,864 symbols are the file's `vocabulary.txt`, line for line.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_tokenizer_has_every_symbol_of_the_vocabulary() {
    let vocabulary = model_files().read_text("vocabulary.txt").unwrap();
    let tokenizer = &transcriber().tokenizer;
    let lines: Vec<&str> = vocabulary.lines().collect();
    assert_eq!(lines.len(), 51_864);
    for (id, line) in lines.iter().enumerate() {
        assert_eq!(tokenizer.bpe.id(line), Some(id as u32), "line {id}: {line:?}");
    }
    let s = tokenizer.specials;
    assert_eq!(
        [s.end, s.start, s.no_timestamps, s.timestamp_begin],
        [50_256, 50_257, 50_362, 50_363]
    );
    // what the test data says the reader said, as Hugging Face's `tokenizers` encodes it
    assert_eq!(
        tokenizer.bpe.encode(" He was not an ill disposed young man."),
        [679, 373, 407, 281, 2801, 29947, 1862, 582, 13]
    );
    // and faster-whisper's transcripts encode back to their own tokens
    for reference in references() {
        assert_eq!(tokenizer.bpe.encode(&reference.text), reference.tokens);
    }
}

/// Every clip's token ids are faster-whisper's, greedy and without timestamps.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn every_transcript_equals_faster_whispers() {
    for (i, (clip, reference)) in CLIPS.iter().zip(references()).enumerate() {
        assert_eq!(clip.samples().len(), reference.samples);
        let transcript = transcript(i, Padding::Zeros);
        assert_eq!(transcript.tokens, reference.tokens, "{}", clip.file);
        assert_eq!(transcript.text, reference.text);
    }
}

/// The cached steps give the logits of the whole sequence decoded at once (chapter 5's decoder),
/// and the same cross-attention weights.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn cached_steps_equal_the_whole_sequence_at_once() {
    let t = transcriber();
    // the spectrogram of silence after the speech, as `log_mel` below computes it
    let transcript = t.transcribe_padded(&CLIPS[1].samples(), Padding::Silence).unwrap();
    let greedy = &transcript.greedy;
    let ids: Vec<u32> = greedy.prompt.iter().chain(&greedy.tokens).copied().collect();
    let mel = ch13_real_whisper::mel::log_mel(&CLIPS[1].samples()).unwrap();
    let (audio, _) = t.model.encode(&mel);
    let (logits, weights) = t.model.decode_all(&ids, &audio);
    let logits = logits.as_vec();
    let vocab = logits.len() / ids.len();
    let mut decoding = t.model.start(&audio);
    let mut largest = (0.0f32, 0.0f32);
    for (i, n) in [(0, 2)].into_iter().chain((2..ids.len()).map(|i| (i, 1))) {
        let step = decoding.step(&t.model, &ids[i..i + n]);
        let last = i + n - 1;
        let whole = &logits[last * vocab..(last + 1) * vocab];
        let d = step.logits.iter().zip(whole).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        largest.0 = largest.0.max(d);
        for (layer, w) in step.cross_weights.iter().enumerate() {
            let all = weights[layer].cross_attn.as_vec();
            let per_query = 6 * 1500;
            let (rows, q) = (w.as_vec(), ids.len());
            for h in 0..6 {
                for (r, query) in (i..i + n).enumerate() {
                    let a = &rows[(h * n + r) * 1500..(h * n + r + 1) * 1500];
                    let b = &all[(h * q + query) * 1500..(h * q + query + 1) * 1500];
                    let d = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
                    largest.1 = largest.1.max(d);
                }
            }
            assert_eq!(all.len(), per_query * q);
        }
    }
    println!(
        "largest differences: logits {:e}, cross-attention weights {:e}",
        largest.0, largest.1
    );
    assert!(largest.0 < 1e-3 && largest.1 < 1e-5, "{largest:?}");
}

/// Every word's start and end are faster-whisper's, all 140 exactly, when the spectrogram is padded
/// as Whisper's `transcribe()` and faster-whisper pad it (the chapter's default, `Padding::Zeros`);
/// padded with silence (`Padding::Silence`, Hugging Face's), 106 are equal and every time but one
/// is within one encoder position (20 ms): the last word of clip 0920 ends 0.10 s earlier.
///
/// With word times, faster-whisper moves on from the end of the last word rather than from the end
/// of the window, as Whisper's own `transcribe()` does (faster-whisper ports its loop): after
/// clips 0890 and 0930 it decodes the last 0.30 and 0.49 s of near silence again and hears " ."
/// there, a second segment. The first segment is the transcript of the window, the same tokens as
/// without word times; its words are compared.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn every_word_time_is_faster_whispers_within_20_ms() {
    let t = transcriber();
    for padding in [Padding::Zeros, Padding::Silence] {
        let (mut largest, mut exact, mut count, mut off) = (0.0f64, 0, 0, vec![]);
        for (i, (clip, reference)) in CLIPS.iter().zip(references()).enumerate() {
            let transcript = transcript(i, padding);
            assert_eq!(transcript.tokens, reference.tokens);
            let words = t.words(transcript);
            let first = &reference.timed_segments[0];
            assert_eq!((first.start, &first.tokens), (0.0, &reference.tokens));
            let got: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            let want: Vec<&str> = first.words.iter().map(|w| w.word.as_str()).collect();
            assert_eq!(got, want, "{}", clip.file);
            let rest: Vec<&str> =
                reference.timed_segments[1..].iter().map(|s| s.text.as_str()).collect();
            let second = ["0890", "0930"].contains(&clip.name());
            assert_eq!(rest, if second { vec![" ."] } else { vec![] });
            for (w, r) in words.iter().zip(&first.words) {
                for (a, b) in [(w.start, r.start), (w.end, r.end)] {
                    let d = (a - b).abs();
                    exact += (d < 1e-9) as usize;
                    count += 1;
                    if d > 0.02 + 1e-9 {
                        off.push((clip.name(), w.text.clone(), a, b));
                    } else {
                        largest = largest.max(d);
                    }
                }
            }
        }
        println!("{padding:?}: {exact} of {count} times equal, the others within {largest:.2} s; {off:?}");
        assert_eq!(count, 140);
        // padded as Whisper's `transcribe()` and faster-whisper pad, every time is theirs exactly;
        // padded with silence, 106 are, and all but one within 20 ms
        match padding {
            Padding::Zeros => assert_eq!((exact, off.len()), (140, 0), "{off:?}"),
            Padding::Silence => {
                assert_eq!(exact, 106);
                assert_eq!(off, [("0920", " was.".to_string(), 5.64, 5.74)]);
            }
        }
    }
}

/// `config.json` names 8 of the 24 cross-attention heads for the word times, and 90 tokens that
/// are never written: 84 of GPT-2's (the symbols Whisper's tokenizer calls non-speech) and 6
/// special tokens. A space and the end of the text are never first.
#[test]
#[ignore = "needs Whisper tiny.en's files: cargo xtask models"]
fn the_configuration_names_the_alignment_heads_and_the_suppressed_tokens() {
    let config = &transcriber().config;
    let bpe = &transcriber().tokenizer.bpe;
    // the same eight as openai-whisper's `_ALIGNMENT_HEADS["tiny.en"]` (whisper/__init__.py)
    assert_eq!(
        config.alignment_heads,
        [(1, 0), (2, 0), (2, 5), (3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]
    );
    assert_eq!(config.suppress_ids.len(), 90);
    let end = transcriber().tokenizer.specials.end;
    let (text, special): (Vec<u32>, Vec<u32>) =
        config.suppress_ids.iter().copied().partition(|&id| id < end);
    assert_eq!((text.len(), special.len()), (84, 6));
    let names = [
        "<|startoftranscript|>",
        "<|translate|>",
        "<|transcribe|>",
        "<|startoflm|>",
        "<|startofprev|>",
        "<|nocaptions|>",
    ];
    assert_eq!(special, names.map(|n| bpe.id(n).unwrap()));
    // The 84 are what openai-whisper's `Tokenizer.non_speech_tokens` gives on this tokenizer:
    // each symbol alone and after a space where it is one token, the first token of the musical
    // symbols always, and a hyphen or a quote that starts a word.
    let mut symbols: Vec<String> =
        "\"#()*+/:;<=>@[\\]^_`{|}~「」『』".chars().map(String::from).collect();
    let more = "<< >> <<< >>> -- --- -( -[ (' (\" (( )) ((( ))) [[ ]] {{ }} ♪♪ ♪♪♪";
    symbols.extend(more.split(' ').map(String::from));
    let musical: Vec<String> = "♩♪♫♬♭♮♯".chars().map(String::from).collect();
    let mut rule: Vec<u32> = vec![bpe.encode(" -")[0], bpe.encode(" '")[0]];
    for symbol in symbols.iter().chain(&musical) {
        for ids in [bpe.encode(symbol), bpe.encode(&format!(" {symbol}"))] {
            if ids.len() == 1 || musical.contains(symbol) {
                rule.push(ids[0]);
            }
        }
    }
    rule.sort();
    rule.dedup();
    assert_eq!(rule, text);
    // ... but not the punctuation of speech
    for symbol in [",", ".", "?", "!", "'", "-", " ."] {
        assert!(!text.contains(&bpe.encode(symbol)[0]), "{symbol:?}");
    }
    // The musical symbols are three bytes in UTF-8 (♪ is E2 99 AA) and two tokens: the suppressed
    // one holds the first two bytes, which ♩ to ♯ share (GPT-2's byte alphabet writes E2 99 as
    // "âĻ"), so none of them can be written, alone or after a space.
    assert_eq!("♪".as_bytes(), [0xE2, 0x99, 0xAA]);
    let (first, spaced) = (bpe.id("âĻ").unwrap(), bpe.id("ĠâĻ").unwrap());
    assert!(text.contains(&first) && text.contains(&spaced));
    for symbol in ['♩', '♪', '♫', '♬', '♭', '♮', '♯'] {
        let ids = bpe.encode(&symbol.to_string());
        assert_eq!((ids.len(), ids[0]), (2, first), "{symbol}");
        assert!(!text.contains(&ids[1]));
        assert_eq!(bpe.decode(&ids), symbol.to_string());
        assert_eq!(bpe.encode(&format!(" {symbol}"))[0], spaced);
    }
    assert_eq!(config.suppress_ids_begin, [220, end]);
    assert_eq!(bpe.decode(&[220]), " ");
}
