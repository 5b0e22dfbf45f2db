//! What a checkpoint file holds, and the errors for one the model cannot read.

use std::collections::HashMap;

use ch10_language_models::char_model::trained::WEIGHTS;
use ch10_language_models::llama::checkpoint::{entries, is_setting};
use ch10_language_models::TinyLlama;
use safetensors::tensor::TensorView;
use safetensors::Dtype;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tiny_llama.safetensors");

/// A scratch file of this test's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ch10-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The fixture's entries, rewritten by `change` (which may drop or alter any), saved at `path`.
fn rewrite(
    path: &std::path::Path,
    change: impl Fn(&str, Dtype, &[usize], &[u8]) -> Option<(Dtype, Vec<u8>)>,
) {
    let bytes = std::fs::read(FIXTURE).unwrap();
    let file = safetensors::SafeTensors::deserialize(&bytes).unwrap();
    let kept: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> = file
        .tensors()
        .into_iter()
        .filter_map(|(name, v)| {
            change(&name, v.dtype(), v.shape(), v.data())
                .map(|(dtype, data)| (name, dtype, v.shape().to_vec(), data))
        })
        .collect();
    let views: HashMap<String, TensorView<'_>> = kept
        .iter()
        .map(|(n, d, s, data)| (n.clone(), TensorView::new(*d, s.clone(), data).unwrap()))
        .collect();
    safetensors::serialize_to_file(&views, &None, path).unwrap();
}

/// Hugging Face's file holds the 3 + 9·2 = 21 weights only; the crate's own save holds the
/// same 21 and 8 settings as float64 (`rope_theta`, `rope_layout`, `sliding_window`, five
/// norms' `eps`), so it is not a plain Hugging Face checkpoint.
#[test]
fn a_save_holds_the_weights_and_eight_settings() {
    let hf = entries(FIXTURE.as_ref()).unwrap();
    assert_eq!(hf.len(), 3 + 9 * 2);
    assert!(hf.iter().all(|(name, dtype)| !is_setting(name) && *dtype == Dtype::F32));
    let ours = entries(WEIGHTS.as_ref()).unwrap();
    let settings: Vec<&str> =
        ours.iter().filter(|(n, _)| is_setting(n)).map(|(n, _)| n.as_str()).collect();
    assert_eq!(settings.len(), 8, "{settings:?}");
    assert!(settings.contains(&"rope_theta") && settings.contains(&"sliding_window"));
    assert!(ours.iter().filter(|(n, _)| is_setting(n)).all(|(_, d)| *d == Dtype::F64));
    assert_eq!(ours.len() - settings.len(), hf.len());
}

/// A checkpoint stored in bfloat16 is an error naming the first such entry, not weights read
/// from the wrong bytes.
#[test]
fn a_bfloat16_checkpoint_is_an_error() {
    let path = scratch("bf16.safetensors");
    rewrite(&path, |_, _, _, data| {
        // keep the upper half of every float32: what a bfloat16 conversion stores
        let halves = data.chunks(4).flat_map(|f| [f[2], f[3]]).collect();
        Some((Dtype::BF16, halves))
    });
    let err = TinyLlama::load(&support::Dev::default(), &path, "convert it").unwrap_err();
    let text = err.to_string();
    assert!(text.contains("is stored as BF16, not F32"), "{text}");
    assert!(text.contains("`lm_head.weight`"), "{text}");
}

/// A checkpoint without one of the weights is an error naming it.
#[test]
fn a_missing_weight_is_an_error() {
    let path = scratch("missing.safetensors");
    rewrite(&path, |name, dtype, _, data| {
        (name != "model.layers.1.mlp.down_proj.weight").then(|| (dtype, data.to_vec()))
    });
    let err = TinyLlama::load(&support::Dev::default(), &path, "convert it").unwrap_err();
    assert!(err.to_string().contains("model.layers.1.mlp.down_proj.weight"), "{err}");
}
