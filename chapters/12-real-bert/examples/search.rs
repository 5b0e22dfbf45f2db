//! Ask the book a question: the five paragraphs of `book/src` closest to it in meaning, with their
//! chapter and score.
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example search -- "why divide by the square root of d_k?"
//! ```
//!
//! The first run (and the first after the book changes) embeds every paragraph into
//! `target/book-index/`; later runs read it.

use ch12_real_bert::cli::parse_search_args;
use ch12_real_bert::search::current_index;
use ch12_real_bert::SentenceEncoder;
use support::cli::{args_or_exit, or_exit};
use support::Dev;

fn main() {
    let args = or_exit(parse_search_args(&args_or_exit()));
    let encoder = SentenceEncoder::load_or_exit(&Dev::default());
    let index = or_exit(current_index(&encoder, |n| {
        if n > 0 {
            eprintln!("indexing {n} paragraphs of book/src (once per change of the book)");
        }
    }));
    let query = &encoder.embed_fast(&[&args.query])[0];
    println!("{}\n", args.query);
    for (rank, hit) in index.rank(query, args.top).iter().enumerate() {
        let p = hit.paragraph;
        let words: Vec<&str> = p.text.split_whitespace().collect();
        let shown = if words.len() > 40 {
            format!("{} ...", words[..40].join(" "))
        } else {
            p.text.clone()
        };
        println!("{}. {:.3}  chapter {} > {}", rank + 1, hit.score, p.chapter, p.section);
        println!("   {shown}\n");
    }
}
