//! The encoder, the loader and the pooling on a small random BERT: no model file needed.

use std::collections::HashMap;

use ::safetensors::tensor::TensorView;
use ::safetensors::Dtype;
use ch12_real_bert::bert::TinyBert;
use ch12_real_bert::config::BertConfig;
use ch12_real_bert::load::Entries;
use ch12_real_bert::{cosine, embed_ids, mean_pool, normalize, Padding};
use dfdx::prelude::*;
use support::{seeded_device, Dev};

/// Three sequences of 3 to 7 tokens (`[CLS]` = 2 and `[SEP]` = 3, as in the tiny vocabulary).
fn sequences() -> Vec<Vec<usize>> {
    vec![vec![2, 10, 11, 3], vec![2, 12, 13, 14, 15, 16, 3], vec![2, 17, 3]]
}

#[test]
fn a_padded_batch_equals_each_sequence_alone() {
    let dev = seeded_device(1);
    let bert = TinyBert::<Dev>::new(&dev);
    let batch = embed_ids(&bert, &sequences(), 0, Padding::Masked, true);
    for (row, seq) in batch.iter().zip(sequences()) {
        let alone = &embed_ids(&bert, &[seq], 0, Padding::Masked, true)[0];
        let d = row.iter().zip(alone).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(d < 1e-6, "padding changed an embedding by {d}");
    }
}

#[test]
fn without_the_mask_the_padding_changes_the_short_sequences() {
    let dev = seeded_device(1);
    let bert = TinyBert::<Dev>::new(&dev);
    let masked = embed_ids(&bert, &sequences(), 0, Padding::Masked, true);
    let seen = embed_ids(&bert, &sequences(), 0, Padding::Seen, true);
    // the longest sequence has no padding: the same either way
    assert!(cosine(&masked[1], &seen[1]) > 0.999_999);
    // the others attended to [PAD] tokens, and moved
    for i in [0, 2] {
        let c = cosine(&masked[i], &seen[i]);
        assert!(c < 0.9999, "sequence {i}: cosine {c} with and without the mask");
    }
}

#[test]
fn mean_pooling_averages_the_real_tokens_only() {
    let dev = Dev::default();
    // two sequences of three tokens with two features; the second has one padding token
    let hidden = dev.tensor_from_vec(
        vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 20.0, 30.0, 40.0, 1e6, -1e6],
        (2, 3, Const::<2>),
    );
    let real = dev.tensor_from_vec(vec![true, true, true, true, true, false], (2, 3));
    assert_eq!(mean_pool(hidden, real).as_vec(), [3.0, 4.0, 20.0, 30.0]);
    let unit = normalize(dev.tensor_from_vec(vec![3.0, 4.0, 0.0, 0.0], (2, Const::<2>)));
    assert_eq!(unit.as_vec(), [0.6, 0.8, 0.0, 0.0]); // a zero row stays zero, not NaN
    assert_eq!(cosine(&[1.0, 0.0], &[1.0, 1.0]), std::f32::consts::FRAC_1_SQRT_2);
}

fn config() -> BertConfig {
    serde_json::from_str(
        r#"{"vocab_size": 40, "hidden_size": 16, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 32, "max_position_embeddings": 24,
            "type_vocab_size": 2, "hidden_act": "gelu", "layer_norm_eps": 1e-12}"#,
    )
    .unwrap()
}

/// The tiny model's weights under Hugging Face's names, with the entries the loader skips.
fn hugging_face_entries(bert: &TinyBert<Dev>) -> Vec<(String, Vec<usize>, Vec<f32>)> {
    let mut out = Vec::new();
    let mut put = |name: String, shape: &[usize], values: Vec<f32>| {
        out.push((name, shape.to_vec(), values));
    };
    let e = &bert.embeddings;
    put("embeddings.word_embeddings.weight".into(), &[40, 16], e.word.weight.as_vec());
    put("embeddings.position_embeddings.weight".into(), &[24, 16], e.position.weight.as_vec());
    put("embeddings.token_type_embeddings.weight".into(), &[2, 16], e.token_type.weight.as_vec());
    put("embeddings.LayerNorm.weight".into(), &[16], e.norm.gamma.as_vec());
    put("embeddings.LayerNorm.bias".into(), &[16], e.norm.beta.as_vec());
    for (i, b) in bert.encoder.layers.iter().enumerate() {
        let p = format!("encoder.layer.{i}.");
        let a = &b.self_attn;
        for (name, l) in [("attention.self.query", &a.w_q), ("attention.self.key", &a.w_k)]
            .into_iter()
            .chain([("attention.self.value", &a.w_v), ("attention.output.dense", &a.w_o)])
        {
            put(format!("{p}{name}.weight"), &[16, 16], l.weight.as_vec());
            put(format!("{p}{name}.bias"), &[16], l.bias.as_vec());
        }
        put(format!("{p}attention.output.LayerNorm.weight"), &[16], b.norm1.gamma.as_vec());
        put(format!("{p}attention.output.LayerNorm.bias"), &[16], b.norm1.beta.as_vec());
        put(format!("{p}intermediate.dense.weight"), &[32, 16], b.ffn.linear1.weight.as_vec());
        put(format!("{p}intermediate.dense.bias"), &[32], b.ffn.linear1.bias.as_vec());
        put(format!("{p}output.dense.weight"), &[16, 32], b.ffn.linear2.weight.as_vec());
        put(format!("{p}output.dense.bias"), &[16], b.ffn.linear2.bias.as_vec());
        put(format!("{p}output.LayerNorm.weight"), &[16], b.norm2.gamma.as_vec());
        put(format!("{p}output.LayerNorm.bias"), &[16], b.norm2.beta.as_vec());
    }
    put("pooler.dense.weight".into(), &[16, 16], vec![0.5; 256]);
    put("pooler.dense.bias".into(), &[16], vec![0.5; 16]);
    out
}

/// Writes `entries` (and an int64 `embeddings.position_ids`) as a safetensors file.
fn write(entries: &[(String, Vec<usize>, Vec<f32>)], name: &str) -> std::path::PathBuf {
    let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = entries
        .iter()
        .map(|(n, s, v)| (n.clone(), s.clone(), v.iter().flat_map(|x| x.to_le_bytes()).collect()))
        .collect();
    let ids: Vec<u8> = (0..24i64).flat_map(|i| i.to_le_bytes()).collect();
    let mut views: HashMap<String, TensorView<'_>> = bytes
        .iter()
        .map(|(n, s, b)| (n.clone(), TensorView::new(Dtype::F32, s.clone(), b).unwrap()))
        .collect();
    views.insert(
        "embeddings.position_ids".into(),
        TensorView::new(Dtype::I64, vec![1, 24], &ids).unwrap(),
    );
    let path = std::env::temp_dir().join(format!("ch12-{}-{name}.safetensors", std::process::id()));
    ::safetensors::serialize_to_file(&views, &None, &path).unwrap();
    path
}

#[test]
fn the_loader_reads_every_weight_by_hugging_faces_name() {
    let dev = seeded_device(2);
    let original = TinyBert::<Dev>::new(&dev);
    let path = write(&hugging_face_entries(&original), "whole");
    let loaded = TinyBert::from_entries(&dev, Entries::read(&path).unwrap(), &config()).unwrap();
    let ids = sequences();
    assert_eq!(
        embed_ids(&loaded, &ids, 0, Padding::Masked, false),
        embed_ids(&original, &ids, 0, Padding::Masked, false)
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_file_of_another_layout_is_an_error_that_names_the_entry() {
    let dev = seeded_device(3);
    let entries = hugging_face_entries(&TinyBert::<Dev>::new(&dev));
    let load = |entries: &[(String, Vec<usize>, Vec<f32>)], name: &str| {
        let path = write(entries, name);
        let result = TinyBert::from_entries(&dev, Entries::read(&path).unwrap(), &config());
        std::fs::remove_file(path).unwrap();
        result.map(|_| ()).unwrap_err()
    };
    let missing: Vec<_> =
        entries.iter().filter(|e| e.0 != "encoder.layer.1.output.dense.bias").cloned().collect();
    assert_eq!(
        load(&missing, "missing"),
        "the file has no entry `encoder.layer.1.output.dense.bias`"
    );
    let mut extra = entries.clone();
    extra.push(("cls.predictions.bias".into(), vec![40], vec![0.0; 40]));
    assert_eq!(
        load(&extra, "extra"),
        "entries this model does not use: [\"cls.predictions.bias\"]"
    );
    let mut wrong = entries.clone();
    wrong[0] = (wrong[0].0.clone(), vec![16, 40], wrong[0].2.clone());
    assert_eq!(
        load(&wrong, "shape"),
        "`embeddings.word_embeddings.weight` has shape [16, 40], this model expects [40, 16]"
    );
}

#[test]
fn a_configuration_for_another_model_is_refused() {
    use ch12_real_bert::config::{Sizes, MINILM};
    let tiny = Sizes {
        vocab: 40,
        d_model: 16,
        layers: 2,
        heads: 4,
        d_ff: 32,
        positions: 24,
        token_types: 2,
    };
    assert_eq!(config().check(tiny), Ok(()));
    let err = config().check(MINILM).unwrap_err();
    assert!(
        err.starts_with(
            "config.json: vocab_size is 40, but this model type was compiled for 30522"
        ),
        "{err}"
    );
    let mut swish = config();
    swish.hidden_act = "swish".into();
    assert!(swish.check(tiny).unwrap_err().contains("unknown activation \"swish\""));
}
