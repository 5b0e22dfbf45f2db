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
    // BERT's pooler, which the file holds too: one 384 x 384 layer and its bias
    assert_eq!(384 * 384 + 384, 147_840);
    assert_eq!(22_565_376 + 147_840, 22_713_216);
    assert_eq!(format!("{:.0}%", 100.0 * (30_522 * 384) as f64 / 22_713_216.0), "52%");
}

/// What `model.safetensors` holds: the encoder's floats, the pooler's, and one integer buffer.
#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn worked_example_what_the_file_holds() {
    use ::safetensors::{Dtype, SafeTensors};
    let files = ModelFiles::locate().unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(files.path("model.safetensors")).unwrap();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    let count = |keep: &dyn Fn(&str) -> bool| -> usize {
        (file.tensors().iter())
            .filter(|(name, view)| view.dtype() == Dtype::F32 && keep(name))
            .map(|(_, view)| view.shape().iter().product::<usize>())
            .sum()
    };
    assert_eq!(count(&|_| true), 22_713_216);
    assert_eq!(count(&|name| name.starts_with("pooler.")), 147_840);
    assert_eq!(count(&|name| !name.starts_with("pooler.")), 22_565_376);
    // `position_ids`: 0, 1, ..., 511 as int64, shape (1, 512)
    let ids = file.tensor("embeddings.position_ids").unwrap();
    assert_eq!((ids.dtype(), ids.shape()), (Dtype::I64, &[1, 512][..]));
    let values: Vec<i64> =
        (ids.data().chunks_exact(8)).map(|b| i64::from_le_bytes(b.try_into().unwrap())).collect();
    assert_eq!(values, (0..512).collect::<Vec<i64>>());
    // the transformers version that saved the configuration (current versions no longer save
    // `position_ids`: they register it with persistent=False)
    let config: serde_json::Value =
        serde_json::from_str(&files.read_text("config.json").unwrap()).unwrap();
    assert_eq!(config["transformers_version"], "4.8.2");
    // and the model it was fine-tuned from: MiniLM-L12-H384 with every second layer kept
    assert_eq!(config["_name_or_path"], "nreimers/MiniLM-L6-H384-uncased");
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
    // [CLS] and [SEP] frame the sentence's 16 tokens: 18 in all
    assert_eq!(enc.ids.len(), 18);
    assert_eq!((enc.ids[0], enc.ids[17]), (101, 102));
    let pieces: usize = words.iter().map(|w| tok.pieces(w).len()).sum();
    assert_eq!(pieces, 16);
    assert_eq!(enc.ids.len() - 2, pieces);
    assert_eq!(tok.pieces("👍"), ["[UNK]"]);
}
