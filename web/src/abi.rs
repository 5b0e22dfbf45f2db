//! The seam between the page's JavaScript and the chapters' code, without generated glue: the page
//! asks for an input buffer of `len` numbers ([`input`]), writes into the module's memory, calls
//! one widget function, and reads the result from [`output`] / [`output_len`], or the error from
//! [`error`] / [`error_len`] (UTF-8) when the call returned 1. Trained weights come the same way,
//! as bytes ([`bytes`]), once per page: a `*_load` function keeps the model for the calls after.
//! `book/theme/widgets.js` is the other half.
//!
//! Exporting a function under its own name takes `#[no_mangle]`, which the `unsafe_code` lint
//! counts as unsafe (two exports of one name would clash at link time); this module holds every
//! export and no `unsafe` block, and is listed in `tests/unsafe_code.rs`.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::thread::LocalKey;

use crate::{ch07, ch09, ch10};

thread_local! {
    static BYTES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static CH07: RefCell<Option<ch07::Classifier>> = const { RefCell::new(None) };
    static CH09: RefCell<Option<ch09::Answerer>> = const { RefCell::new(None) };
    static CH10: RefCell<Option<ch10::Writer>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Makes the input buffer `len` numbers long (zeros) and returns where it starts.
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut f32 {
    INPUT.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0.0);
        v.as_mut_ptr()
    })
}

/// Makes the byte buffer (a weights file) `len` bytes long and returns where it starts.
#[no_mangle]
pub extern "C" fn bytes(len: usize) -> *mut u8 {
    BYTES.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0);
        v.as_mut_ptr()
    })
}

/// Where the last call's result starts.
#[no_mangle]
pub extern "C" fn output() -> *const f32 {
    OUTPUT.with_borrow(|v| v.as_ptr())
}

/// How many numbers the last call returned.
#[no_mangle]
pub extern "C" fn output_len() -> usize {
    OUTPUT.with_borrow(|v| v.len())
}

/// Where the last error's message starts (UTF-8).
#[no_mangle]
pub extern "C" fn error() -> *const u8 {
    ERROR.with_borrow(|e| e.as_ptr())
}

/// The last error's length in bytes.
#[no_mangle]
pub extern "C" fn error_len() -> usize {
    ERROR.with_borrow(|e| e.len())
}

/// Runs `widget` on the input buffer: 0 with the result in the output buffer, 1 with a message.
pub fn call(widget: impl FnOnce(&[f32]) -> Result<Vec<f32>, String>) -> u32 {
    let result = INPUT.with_borrow(|input| widget(input));
    match result {
        Ok(values) => {
            OUTPUT.set(values);
            0
        }
        Err(message) => {
            ERROR.set(message);
            1
        }
    }
}

/// Builds a model from the byte buffer into `slot` (the buffer is freed): 0, or 1 with a message.
pub fn load<T: 'static>(
    slot: &'static LocalKey<RefCell<Option<T>>>,
    from_bytes: fn(&[u8]) -> Result<T, String>,
) -> u32 {
    let bytes = BYTES.take();
    call(|_| {
        slot.set(Some(from_bytes(&bytes)?));
        Ok(Vec::new())
    })
}

/// Runs `widget` with the model in `slot` on the input buffer, as [`call`].
pub fn with_model<T: 'static>(
    slot: &'static LocalKey<RefCell<Option<T>>>,
    widget: fn(&T, &[f32]) -> Result<Vec<f32>, String>,
) -> u32 {
    slot.with_borrow(|model| match model {
        Some(model) => call(|input| widget(model, input)),
        None => call(|_| Err("the weights are not loaded yet".to_string())),
    })
}

/// [`crate::ch01::sentence`]: the input is the tokens, three numbers each.
#[no_mangle]
pub extern "C" fn ch01_sentence() -> u32 {
    call(crate::ch01::sentence)
}

/// [`crate::ch01::embeddings`], the editor's starting values.
#[no_mangle]
pub extern "C" fn ch01_embeddings() -> u32 {
    call(|_| Ok(crate::ch01::embeddings()))
}

/// [`crate::ch01::SCALING_WIDTHS`], the scaling slider's stops.
#[no_mangle]
pub extern "C" fn ch01_scaling_widths() -> u32 {
    call(|_| Ok(crate::ch01::SCALING_WIDTHS.map(|d| d as f32).to_vec()))
}

/// [`crate::ch01::scaling`] at width `d_k` (the input is not read).
#[no_mangle]
pub extern "C" fn ch01_scaling(d_k: usize) -> u32 {
    call(|_| crate::ch01::scaling(d_k))
}

/// [`crate::ch02::bank_loan`]: the input is the example's 16 numbers.
#[no_mangle]
pub extern "C" fn ch02_bank_loan() -> u32 {
    call(crate::ch02::bank_loan)
}

/// [`crate::ch02::chapter`], the editor's starting values.
#[no_mangle]
pub extern "C" fn ch02_chapter() -> u32 {
    call(|_| Ok(crate::ch02::chapter()))
}

/// [`crate::ch04::encoding`] of width `d_model`, with position `p`'s similarities.
#[no_mangle]
pub extern "C" fn ch04_encoding(d_model: usize, p: usize) -> u32 {
    call(|_| crate::ch04::encoding(d_model, p))
}

/// [`crate::ch04::WIDTHS`], the width selector's choices.
#[no_mangle]
pub extern "C" fn ch04_widths() -> u32 {
    call(|_| Ok(crate::ch04::WIDTHS.map(|d| d as f32).to_vec()))
}

/// [`crate::ch06::mask_builder`]: the input is the four settings.
#[no_mangle]
pub extern "C" fn ch06_mask_builder() -> u32 {
    call(crate::ch06::mask_builder)
}

/// Chapter 7's trained ViT from the byte buffer ([`ch07::Classifier::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch07_load() -> u32 {
    load(&CH07, ch07::Classifier::from_bytes)
}

/// [`ch07::Classifier::classify`]: the input is the 64 pixels.
#[no_mangle]
pub extern "C" fn ch07_classify() -> u32 {
    with_model(&CH07, ch07::Classifier::classify)
}

/// [`ch07::test_examples`]: the first test image of each digit.
#[no_mangle]
pub extern "C" fn ch07_examples() -> u32 {
    call(|_| Ok(ch07::test_examples()))
}

/// [`crate::ch08::mask`]: the input is the pattern's 8 numbers.
#[no_mangle]
pub extern "C" fn ch08_mask() -> u32 {
    call(crate::ch08::mask)
}

/// [`crate::ch08::attend`] by `sparse_head` (`sparse` 1) or the dense form (0).
#[no_mangle]
pub extern "C" fn ch08_attend(sparse: u32) -> u32 {
    call(|values| crate::ch08::attend(values, sparse != 0))
}

/// Chapter 9's trained reverser from the byte buffer ([`ch09::Answerer::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch09_load() -> u32 {
    load(&CH09, ch09::Answerer::from_bytes)
}

/// [`ch09::Answerer::reverse`]: the input is the typed text's code points.
#[no_mangle]
pub extern "C" fn ch09_reverse() -> u32 {
    with_model(&CH09, ch09::Answerer::reverse)
}

/// Chapter 10's trained character model from the byte buffer ([`ch10::Writer::from_bytes`]).
#[no_mangle]
pub extern "C" fn ch10_load() -> u32 {
    load(&CH10, ch10::Writer::from_bytes)
}

/// [`ch10::Writer::write`]: the input is [`ch10::Request::from_numbers`]'.
#[no_mangle]
pub extern "C" fn ch10_write() -> u32 {
    with_model(&CH10, ch10::Writer::write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_fills_the_output_or_the_error() {
        let tokens = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        INPUT.set(tokens.to_vec());
        assert_eq!(ch01_sentence(), 0);
        assert_eq!(output_len(), 4 + 4 + 6);
        INPUT.set(vec![1.0, 2.0]);
        assert_eq!(ch01_sentence(), 1);
        assert!(ERROR.with_borrow(|e| e.contains("three numbers")), "{}", ERROR.take());
        assert_eq!(error_len(), ERROR.with_borrow(|e| e.len()));
    }

    #[test]
    fn a_model_answers_once_its_weights_are_loaded() {
        INPUT.set(crate::text::to_code_points("123").collect());
        assert_eq!(ch09_reverse(), 1);
        assert!(ERROR.with_borrow(|e| e.contains("not loaded")));
        BYTES.set(b"not weights".to_vec());
        assert_eq!(ch09_load(), 1);
        BYTES.set(std::fs::read(ch09_capstone::trained::WEIGHTS).unwrap());
        assert_eq!(ch09_load(), 0);
        assert!(BYTES.with_borrow(Vec::is_empty), "the weights' bytes are freed");
        INPUT.set(crate::text::to_code_points("123").collect());
        assert_eq!(ch09_reverse(), 0);
        assert_eq!(
            OUTPUT.with_borrow(|o| o[..8].to_vec()),
            [3.0, 1.0, 2.0, 3.0, 3.0, 3.0, 2.0, 1.0]
        );
    }
}
