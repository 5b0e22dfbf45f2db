//! What a checkpoint file holds, checked before dfdx reads it: dfdx's `load_safetensors` checks
//! each weight's name and shape but not how its numbers are stored, so a `bfloat16` checkpoint
//! would be read as the wrong bytes. Here every weight must be float32.
//!
//! This crate's own saves also hold the model's settings as float64 scalars beside the weights
//! (dfdx's way of saving numbers that are not tensors): `rope_theta`, `rope_layout`,
//! `sliding_window` and each RMSNorm's `eps`. A file saved by `transformers` has none of them.

use std::path::Path;

use safetensors::{Dtype, SafeTensors};
use support::LoadError;

/// The names of the settings saved beside the weights (the last part of the entry's name).
pub const SETTINGS: [&str; 4] = ["rope_theta", "rope_layout", "sliding_window", "eps"];

/// Whether an entry is a setting rather than a weight.
pub fn is_setting(name: &str) -> bool {
    SETTINGS.contains(&name.rsplit('.').next().unwrap_or(name))
}

/// Every entry of the safetensors file at `path`, by name, with how it is stored.
pub fn entries(path: &Path) -> Result<Vec<(String, Dtype)>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let file = SafeTensors::deserialize(&bytes).map_err(|e| format!("{e:?}"))?;
    let mut entries: Vec<(String, Dtype)> =
        file.tensors().into_iter().map(|(name, view)| (name, view.dtype())).collect();
    entries.sort();
    Ok(entries)
}

/// `Ok` if every weight in the file is float32 and every setting float64; otherwise the first
/// entry that is not, by name.
pub fn check_dtypes(path: &Path, remedy: &'static str) -> Result<(), LoadError> {
    let mismatch = |detail: String| LoadError::Mismatch {
        path: path.display().to_string(),
        expected: "float32 weights under Hugging Face's names",
        detail,
        remedy,
    };
    for (name, dtype) in entries(path).map_err(mismatch)? {
        let wanted = if is_setting(&name) { Dtype::F64 } else { Dtype::F32 };
        if dtype != wanted {
            return Err(mismatch(format!(
                "`{name}` is stored as {dtype:?}, not {wanted:?}: this model loads float32 \
                 weights only; convert the checkpoint (in PyTorch: `model.float()` before \
                 `save_pretrained`)"
            )));
        }
    }
    Ok(())
}
