//! The model's parameter table, row by row: each formula evaluates to dfdx's count of that part
//! of the built model and to PyTorch's count of the same part (`fixtures/params_reference.json`,
//! from `fixtures/generate_params.py`), and the rows add up to the total.

use ch05_blocks::{PreNorm, Seq2Seq};
use ch09_capstone::model::parameter_table;
use ch09_capstone::vocab::VOCAB;
use ch09_capstone::{new_model, D_FF, D_MODEL, HEADS, LAYERS, MAX_DIGITS, MAX_LEN};
use dfdx::prelude::*;
use support::Dev;

fn pytorch(group: &str, key: &str) -> usize {
    let f = support::fixtures::load(
        concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/params_reference.json"),
        "fixtures/generate_params.py",
    );
    f[group][key].as_u64().unwrap_or_else(|| panic!("the fixture lacks {group}.{key}")) as usize
}

#[test]
fn worked_example_parameters() {
    let table = parameter_table();
    let model = new_model(&Dev::default(), 0.0);
    let row = |part: &str| table.row(part).count.value();
    let rows = [
        ("source embedding", model.src_embed.num_trainable_params(), "src_embed", 832),
        ("target embedding", model.tgt_embed.num_trainable_params(), "tgt_embed", 832),
        (
            "one encoder block: self-attention, feed-forward, 2 norms",
            model.encoder.layers[0].num_trainable_params(),
            "encoder_layer",
            33_472,
        ),
        ("2 encoder blocks", model.encoder.num_trainable_params(), "encoder", 66_944),
        (
            "one decoder block: self- and cross-attention, feed-forward, 3 norms",
            model.decoder.layers[0].num_trainable_params(),
            "decoder_layer",
            50_240,
        ),
        ("2 decoder blocks", model.decoder.num_trainable_params(), "decoder", 100_480),
        ("output projection", model.out.num_trainable_params(), "out", 845),
        ("positions: chapter 4's sines and cosines", 0, "positions", 0),
    ];
    assert_eq!(rows.len(), table.rows.len(), "every row of the table is checked");
    for (part, dfdx, torch_key, shown) in rows {
        assert_eq!(
            (row(part), dfdx, pytorch("from_scratch", torch_key)),
            (shown, shown, shown),
            "{part}"
        );
    }
    // the terms of a block: attention 16,640, feed-forward 16,576, a norm 128
    let block = table.row("one encoder block: self-attention, feed-forward, 2 norms").count.text();
    assert_eq!(block, "4(64 · 64 + 64) + 64 · 128 + 128 + 128 · 64 + 64 + 2 · 2 · 64");
    assert_eq!(
        (64 * 64 + 64) * 4 + (64 * 128 + 128) + (128 * 64 + 64) + 2 * 2 * 64,
        16_640 + 16_576 + 256
    );
    assert_eq!(table.total().value(), 169_933);
    assert_eq!(model.num_trainable_params(), 169_933);
    assert_eq!(pytorch("from_scratch", "total"), 169_933);
    assert_eq!((model.max_len, MAX_LEN, MAX_DIGITS), (24, 24, 23));
}

/// PyTorch's own layers at these sizes, post-norm and pre-norm, count the same as the blocks;
/// `nn.Transformer` adds a final norm after each stack.
#[test]
fn pre_norm_and_builtin_layers_count_the_same() {
    for suffix in ["post", "pre"] {
        assert_eq!(pytorch("builtin_layers", &format!("encoder_layer_{suffix}")), 33_472);
        assert_eq!(pytorch("builtin_layers", &format!("decoder_layer_{suffix}")), 50_240);
    }
    type PreNormReverser =
        Seq2Seq<VOCAB, VOCAB, D_MODEL, HEADS, { D_MODEL / HEADS }, D_FF, LAYERS, PreNorm, f32, Dev>;
    let pre = PreNormReverser::new(&Dev::default());
    assert_eq!(pre.num_trainable_params(), 169_933);
    assert_eq!(pytorch("nn_transformer", "final_norms"), 256);
    assert_eq!(pytorch("nn_transformer", "total"), 169_933 + 256);
}
