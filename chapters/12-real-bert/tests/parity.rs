//! The chapter's encoder against sentence-transformers on the committed fixtures: the same token
//! ids, the same embeddings within 1e-6 in every coordinate, alone or in a padded batch.

use ch12_real_bert::sentence::Path;
use ch12_real_bert::{cosine, Padding};

use crate::real_model::{encoder, fixture};

/// The largest difference in any coordinate between an embedding here and sentence-transformers'.
const TOLERANCE: f32 = 1e-6;

fn max_difference(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Each fixture sentence alone, on `path`: the largest difference from sentence-transformers.
fn parity_on(path: Path) -> f32 {
    let enc = encoder();
    let fixture = fixture();
    let mut worst = 0.0f32;
    for s in &fixture {
        assert_eq!(enc.ids(&s.text), s.ids, "token ids of {:?}", s.text);
        let ours = &enc.embed_on(path, &[&s.text])[0];
        let d = max_difference(ours, &s.embedding);
        assert!(d < TOLERANCE, "{path:?}, {:?}: differs by {d} from sentence-transformers", s.text);
        worst = worst.max(d);
    }
    println!("{path:?}: largest difference over {} sentences: {worst:.2e}", fixture.len());
    worst
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn parity_with_sentence_transformers() {
    parity_on(Path::Dfdx);
    let fixture = fixture();
    assert_eq!(fixture.len(), 24);
    assert!(fixture.iter().any(|s| s.text.split_whitespace().count() == 300 && s.ids.len() == 256));
    // a check that could not fail would prove nothing: the embeddings are far from each other
    assert!(max_difference(&fixture[0].embedding, &fixture[1].embedding) > 0.05);
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn parity_with_sentence_transformers_on_the_fast_path() {
    parity_on(Path::Fast);
    // and all the fixture sentences in one batch, as the speed comparison runs them
    let enc = encoder();
    let fixture = fixture();
    let texts: Vec<&str> = fixture.iter().map(|s| s.text.as_str()).collect();
    for (ours, s) in enc.embed_fast(&texts).iter().zip(&fixture) {
        let d = max_difference(ours, &s.embedding);
        assert!(d < TOLERANCE, "{:?} in a batch: differs by {d}", s.text);
    }
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn worked_example_three_sentences() {
    let texts = ["Attention is all you need.", "Transformers use self-attention.", "I like pizza."];
    let e = encoder().embed(&texts);
    let rounded =
        |a: usize, b: usize, places: usize| format!("{:.*}", places, cosine(&e[a], &e[b]));
    assert_eq!(rounded(0, 1, 3), "0.423");
    assert_eq!(rounded(0, 2, 4), "0.1119");
    assert_eq!(rounded(1, 2, 4), "0.0349");
    for v in &e {
        let length = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 1e-6, "an embedding of length {length}, not 1");
    }
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn a_padded_batch_equals_each_sentence_alone() {
    let enc = encoder();
    let fixture = fixture();
    let texts: Vec<&str> = fixture.iter().map(|s| s.text.as_str()).collect();
    // one padded batch of lengths 2 to 256, with the padding mask
    let ids: Vec<Vec<usize>> = texts.iter().map(|t| enc.ids(t)).collect();
    let pad = enc.tokenizer.pad_id();
    let batch = ch12_real_bert::embed_ids(&enc.model, &ids, pad, Padding::Masked, true);
    let mut worst = 0.0f32;
    for (row, s) in batch.iter().zip(&fixture) {
        let alone = &enc.embed(&[&s.text])[0];
        worst = worst.max(max_difference(row, alone));
    }
    println!("largest difference, batch against alone: {worst:.2e}");
    assert!(worst < TOLERANCE, "a padded batch changes an embedding by {worst}");
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn the_file_holds_104_entries_and_the_config_its_sizes() {
    let files = ch12_real_bert::ModelFiles::locate().unwrap();
    let bytes = std::fs::read(files.path("model.safetensors")).unwrap();
    let file = ::safetensors::SafeTensors::deserialize(&bytes).unwrap();
    assert_eq!(file.names().len(), 104);
    for skipped in ch12_real_bert::load::SKIPPED {
        assert!(file.names().contains(&&skipped.to_string()), "{skipped}");
    }
    let config = ch12_real_bert::BertConfig::read(&files).unwrap();
    assert_eq!(config.check(ch12_real_bert::MINILM), Ok(()));
    assert_eq!((config.layer_norm_eps, encoder().model.embeddings.norm.eps), (1e-12, 1e-12));
    assert_eq!(encoder().sentence.max_seq_length, 256);
    assert!(encoder().sentence.mean_pooling && encoder().sentence.normalize);
}
