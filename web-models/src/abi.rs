//! The exports of the models' module, on the widgets' seam (`attention_web::abi`: the page fills
//! the input or byte buffer, calls, reads the output or the error).
//!
//! Exporting a function under its own name takes `#[no_mangle]`, which the `unsafe_code` lint
//! counts as unsafe; this module holds every export and no `unsafe` block, and is listed in
//! `tests/unsafe_code.rs`.
#![allow(unsafe_code)]

use std::cell::RefCell;

use attention_web::abi::{call, load, with_model};
use ch08_efficient::fast::Isa;

use crate::{ch11, ch12, ch13, lanes};

thread_local! {
    static CH11: RefCell<Option<ch11::Chatter>> = const { RefCell::new(None) };
    static CH12: RefCell<Option<ch12::Asker>> = const { RefCell::new(None) };
    static CH13: RefCell<Option<ch13::Hearer>> = const { RefCell::new(None) };
    static OPENED: RefCell<Option<Vec<f32>>> = const { RefCell::new(None) };
}

/// SmolLM2-135M-Instruct from the byte buffer, its GGUF file ([`ch11::Chatter::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch11_load() -> u32 {
    load(&CH11, ch11::Chatter::from_bytes)
}

/// [`ch11::Chatter::start`]: top-k, temperature, seed, then the message's code points.
#[no_mangle]
pub extern "C" fn ch11_start() -> u32 {
    with_model(&CH11, ch11::Chatter::start)
}

/// [`ch11::Chatter::next`]: the reply's next token and its text.
#[no_mangle]
pub extern "C" fn ch11_next() -> u32 {
    with_model(&CH11, ch11::Chatter::next)
}

/// "Ask the book": all-MiniLM-L6-v2 and the book's index from the byte buffer, a bundle of
/// files ([`ch12::Asker::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch12_load() -> u32 {
    load(&CH12, ch12::Asker::from_bytes)
}

/// [`ch12::Asker::ask`]: the input is the question's code points.
#[no_mangle]
pub extern "C" fn ch12_ask() -> u32 {
    with_model(&CH12, ch12::Asker::ask)
}

/// Whisper tiny.en from the byte buffer, a bundle of [`ch13::FILES`] ([`ch13::Hearer::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch13_load() -> u32 {
    load(&CH13, ch13::Hearer::from_bytes)
}

/// [`ch13::Hearer::hear`]: the input is the rate, then the samples.
#[no_mangle]
pub extern "C" fn ch13_hear() -> u32 {
    with_model(&CH13, ch13::Hearer::hear)
}

/// [`ch13::Hearer::result`]: the transcript, the words and the path, as JSON in code points.
#[no_mangle]
pub extern "C" fn ch13_result() -> u32 {
    with_model(&CH13, ch13::Hearer::result)
}

/// [`ch13::Hearer::matrix`]: the alignment matrix.
#[no_mangle]
pub extern "C" fn ch13_matrix() -> u32 {
    with_model(&CH13, ch13::Hearer::matrix)
}

/// [`ch13::Hearer::spectrogram`]: the log-mel spectrogram of what was heard.
#[no_mangle]
pub extern "C" fn ch13_spectrogram() -> u32 {
    with_model(&CH13, ch13::Hearer::spectrogram)
}

/// A WAV file from the byte buffer, read ([`ch13::open_wav`]) and kept for [`ch13_opened`].
#[no_mangle]
pub extern "C" fn ch13_open() -> u32 {
    load(&OPENED, ch13::open_wav)
}

/// The samples of the file [`ch13_open`] read.
#[no_mangle]
pub extern "C" fn ch13_opened() -> u32 {
    with_model(&OPENED, |samples, _| Ok(samples.clone()))
}

/// [`lanes::run`]: work `work` ([`lanes::Work::numbered`]) on path `path` (its place in
/// `Isa::ALL`: 0 portable, 1 SIMD128).
#[no_mangle]
pub extern "C" fn lanes_run(work: u32, path: u32) -> u32 {
    call(|_| Ok(lanes::run(lanes::Work::numbered(work)?, lanes::path(path)?)))
}

/// The path the chapters' kernels take in this module (its place in `Isa::ALL`).
#[no_mangle]
pub extern "C" fn lanes_chosen() -> u32 {
    call(|_| {
        let chosen = Isa::chosen();
        Ok(vec![Isa::ALL.iter().position(|i| *i == chosen).unwrap_or(0) as f32])
    })
}
