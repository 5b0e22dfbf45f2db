//! Chapter 6's padding mask on the real model: the page's table.

use ch12_real_bert::padding_lesson::{padding_lesson, unmasked_similarities, TEXTS};

use crate::real_model::encoder;

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn worked_example_padding_on_a_real_model() {
    let rows = padding_lesson(encoder(), &TEXTS);
    let shape: Vec<(usize, usize)> = rows.iter().map(|r| (r.tokens, r.padding)).collect();
    assert_eq!(shape, [(8, 51), (8, 51), (6, 53), (59, 0)]);
    for r in &rows {
        assert!(r.masked > 0.999_999, "{:?}: {} with the mask", r.text, r.masked);
    }
    let seen: Vec<String> = rows.iter().map(|r| format!("{:.4}", r.seen)).collect();
    assert_eq!(seen, ["0.5692", "0.6050", "0.5543", "1.0000"]);
    // without the mask, the share of the short texts' attention that goes to the padding
    let on_padding: Vec<String> = rows.iter().map(|r| format!("{:.2}", r.on_padding)).collect();
    assert_eq!(on_padding, ["0.36", "0.34", "0.41", "0.00"]);
    let similar = unmasked_similarities(encoder(), &TEXTS).map(|c| format!("{c:.4}"));
    assert_eq!(similar, ["0.7246", "0.4555", "0.4047"]);
}
