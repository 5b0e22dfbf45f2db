//! Chapter 6's padding mask on a real model: three short sentences batched with a long paragraph,
//! with and without the mask, each compared with the sentence embedded alone.
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example padding
//! ```

use ch12_real_bert::padding_lesson::{padding_lesson, unmasked_similarities, TEXTS};
use ch12_real_bert::{cosine_matrix, SentenceEncoder};
use support::Dev;

fn main() {
    let encoder = SentenceEncoder::load_or_exit(&Dev::default());
    println!(
        "one batch of {} texts, padded to the longest; cosine with the text embedded alone:\n",
        TEXTS.len()
    );
    println!(
        "{:>6} {:>8} {:>12} {:>12} {:>10}  text",
        "tokens", "padding", "with mask", "no mask", "on [PAD]"
    );
    for row in padding_lesson(&encoder, &TEXTS) {
        let text: String = row.text.chars().take(40).collect();
        let more = if row.text.chars().count() > 40 { "..." } else { "" };
        println!(
            "{:>6} {:>8} {:>12.6} {:>12.4} {:>10.2}  {text}{more}",
            row.tokens, row.padding, row.masked, row.seen, row.on_padding
        );
    }
    println!("\n(on [PAD]: without the mask, the mean weight its tokens put on the padding)");
    let alone = cosine_matrix(&encoder.embed(&TEXTS[..3]));
    let seen = unmasked_similarities(&encoder, &TEXTS);
    println!("\nsimilarity of the three sentences:   alone    batch, no mask");
    for (k, (i, j)) in [(0, 1), (0, 2), (1, 2)].into_iter().enumerate() {
        println!("  [{i}] and [{j}]{:>28.4} {:>13.4}", alone[i][j], seen[k]);
    }
}
