//! BERT's tokenizer step by step on one text: the words after normalising and splitting, each
//! word's WordPiece pieces, and the ids the model reads.
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example wordpiece -- "Naïve tokenizers can't split unbelievably long words."
//! ```

use ch12_real_bert::{ModelFiles, Tokenizer};
use support::cli::{args_or_exit, or_exit};

fn main() {
    let text = args_or_exit().join(" ");
    if text.trim().is_empty() {
        or_exit::<(), _>(Err("an empty text; usage: wordpiece TEXT"));
    }
    let files = ModelFiles::locate_or_exit();
    let tok = or_exit(Tokenizer::from_vocab_file(&files.path("vocab.txt")));
    println!("text:   {text}");
    let words = tok.words(&text);
    println!("words:  {}", words.join(" | "));
    let pieces: Vec<String> = words.iter().map(|w| tok.pieces(w).join(" ")).collect();
    println!("pieces: {}", pieces.join(" | "));
    let enc = tok.encode(&text);
    println!("tokens: {}", enc.tokens.join(" "));
    println!("ids:    {:?}", enc.ids);
}
