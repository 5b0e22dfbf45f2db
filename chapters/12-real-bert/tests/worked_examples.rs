//! The worked examples of chapter 12, with every number its page shows.

use ch12_real_bert::bert::MiniLm;
use ch12_real_bert::{ModelFiles, Tokenizer};
use dfdx::prelude::*;
use support::Dev;

/// all-MiniLM-L6-v2's parameters, part by part, as dfdx counts them on the compiled type.
#[test]
fn worked_example_minilm_parameters() {
    let dev = Dev::default();
    let model = MiniLm::<Dev>::new(&dev);
    let embeddings = 30_522 * 384 + 512 * 384 + 2 * 384 + 2 * 384;
    let block = 4 * (384 * 384 + 384) + (384 * 1_536 + 1_536) + (1_536 * 384 + 384) + 2 * 2 * 384;
    assert_eq!((embeddings, block), (11_918_592, 1_774_464));
    assert_eq!(model.embeddings.num_trainable_params(), embeddings);
    assert_eq!(model.encoder.layers[0].num_trainable_params(), block);
    assert_eq!(model.num_trainable_params(), embeddings + 6 * block);
    assert_eq!(embeddings + 6 * block, 22_565_376);
    // the word table alone is more than half of the model
    assert_eq!(format!("{:.0}%", 100.0 * (30_522 * 384) as f64 / 22_565_376.0), "52%");
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn worked_example_wordpiece() {
    let files = ModelFiles::locate().unwrap_or_else(|e| panic!("{e}"));
    let tok = Tokenizer::from_vocab_file(&files.path("vocab.txt")).unwrap();
    let text = "Naïve tokenizers can't split unbelievably long words.";
    let words = tok.words(text);
    assert_eq!(
        words,
        ["naive", "tokenizers", "can", "'", "t", "split", "unbelievably", "long", "words", "."]
    );
    assert_eq!(tok.pieces("tokenizers"), ["token", "##izer", "##s"]);
    assert_eq!(tok.pieces("unbelievably"), ["un", "##bel", "##ie", "##va", "##bly"]);
    // "tokenizer" is no word of the vocabulary, "token" is: the longest prefix wins
    assert_eq!((tok.id("tokenizer"), tok.id("token")), (None, Some(19_204)));
    let enc = tok.encode(text);
    assert_eq!(enc.ids.len(), 18);
    assert_eq!((enc.ids[0], enc.ids[17]), (101, 102)); // [CLS] and [SEP]
    assert_eq!(tok.pieces("👍"), ["[UNK]"]);
}
