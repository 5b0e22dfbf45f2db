//! all-MiniLM-L6-v2's weights, read from its safetensors file by the names Hugging Face's
//! `BertModel` gives them and put into chapter 5's blocks. Every entry of the file is used or
//! skipped by name, and any other entry is an error: nothing is left behind by accident.

use std::collections::BTreeMap;
use std::path::Path;

use ::safetensors::{Dtype, SafeTensors};
use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::{EncoderBlock, FeedForward, LayerNorm, PostNorm};
use dfdx::nn::modules::Linear;
use dfdx::prelude::*;

use crate::bert::Bert;
use crate::config::BertConfig;

/// Entries of the file that the encoder does not use, each for a reason:
/// - `embeddings.position_ids`: an int64 buffer `[0, 1, ..., 511]` that `transformers` saves with
///   the model; positions here are `0..seq` directly;
/// - `pooler.dense.*`: BERT's pooler (a layer on `[CLS]` for next-sentence prediction);
///   sentence-transformers averages the tokens instead and never runs it.
pub const SKIPPED: [&str; 3] =
    ["embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias"];

/// The float32 entries of a safetensors file by name, with their shapes, taken one at a time.
pub struct Entries {
    entries: BTreeMap<String, (Vec<usize>, Vec<f32>)>,
}

impl Entries {
    /// Reads every entry; float32 ones are kept, the [`SKIPPED`] ones dropped, and any other
    /// dtype is an error.
    pub fn read(path: &Path) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    /// [`read`](Self::read) on a file's bytes (`name`: the file, for the errors).
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Self, String> {
        let file = SafeTensors::deserialize(bytes)
            .map_err(|e| format!("{name}: not a safetensors file ({e:?})"))?;
        let mut entries = BTreeMap::new();
        for (name, view) in file.tensors() {
            if SKIPPED.contains(&name.as_str()) {
                continue;
            }
            if view.dtype() != Dtype::F32 {
                return Err(format!("`{name}` is {:?}; this chapter reads float32", view.dtype()));
            }
            let values = view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            entries.insert(name, (view.shape().to_vec(), values));
        }
        Ok(Entries { entries })
    }

    /// Removes the entry `name`, which must have `shape`.
    pub fn take(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
        let (got, values) =
            self.entries.remove(name).ok_or(format!("the file has no entry `{name}`"))?;
        if got != shape {
            return Err(format!("`{name}` has shape {got:?}, this model expects {shape:?}"));
        }
        Ok(values)
    }

    /// `Ok` once every entry has been taken; otherwise the names left, which this model would
    /// have ignored.
    pub fn finish(self) -> Result<(), String> {
        match self.entries.keys().next() {
            None => Ok(()),
            Some(_) => Err(format!(
                "entries this model does not use: {:?}",
                self.entries.keys().collect::<Vec<_>>()
            )),
        }
    }

    fn vector<const N: usize, Dev: Device<f32>>(
        &mut self,
        dev: &Dev,
        name: &str,
    ) -> Result<Tensor<(Const<N>,), f32, Dev>, String> {
        Ok(dev.tensor_from_vec(self.take(name, &[N])?, (Const::<N>,)))
    }

    fn matrix<const R: usize, const C: usize, Dev: Device<f32>>(
        &mut self,
        dev: &Dev,
        name: &str,
    ) -> Result<Tensor<(Const<R>, Const<C>), f32, Dev>, String> {
        Ok(dev.tensor_from_vec(self.take(name, &[R, C])?, (Const::<R>, Const::<C>)))
    }

    /// A `Linear` stored as PyTorch stores it: `name.weight` `(out, in)` and `name.bias`.
    fn linear<const I: usize, const O: usize, Dev: Device<f32>>(
        &mut self,
        dev: &Dev,
        linear: &mut Linear<I, O, f32, Dev>,
        name: &str,
    ) -> Result<(), String> {
        linear.weight = self.matrix(dev, &format!("{name}.weight"))?;
        linear.bias = self.vector(dev, &format!("{name}.bias"))?;
        Ok(())
    }

    fn norm<const M: usize, Dev: Device<f32>>(
        &mut self,
        dev: &Dev,
        norm: &mut LayerNorm<M, f32, Dev>,
        name: &str,
    ) -> Result<(), String> {
        norm.gamma = self.vector(dev, &format!("{name}.weight"))?;
        norm.beta = self.vector(dev, &format!("{name}.bias"))?;
        Ok(())
    }
}

/// One block under Hugging Face's names (`encoder.layer.{i}.`): BERT splits attention into
/// `attention.self` (query, key, value) and `attention.output` (the output projection and the
/// first norm), and the feed-forward network into `intermediate` and `output`.
// ANCHOR: block_names
fn load_block<const M: usize, const H: usize, const DK: usize, const F: usize, Dev: Device<f32>>(
    dev: &Dev,
    w: &mut Entries,
    block: &mut EncoderBlock<M, H, DK, F, PostNorm, f32, Dev>,
    prefix: &str,
) -> Result<(), String> {
    let attn: &mut MultiHeadAttention<M, H, DK, f32, Dev> = &mut block.self_attn;
    w.linear(dev, &mut attn.w_q, &format!("{prefix}attention.self.query"))?;
    w.linear(dev, &mut attn.w_k, &format!("{prefix}attention.self.key"))?;
    w.linear(dev, &mut attn.w_v, &format!("{prefix}attention.self.value"))?;
    w.linear(dev, &mut attn.w_o, &format!("{prefix}attention.output.dense"))?;
    w.norm(dev, &mut block.norm1, &format!("{prefix}attention.output.LayerNorm"))?;
    let ffn: &mut FeedForward<M, F, f32, Dev> = &mut block.ffn;
    w.linear(dev, &mut ffn.linear1, &format!("{prefix}intermediate.dense"))?;
    w.linear(dev, &mut ffn.linear2, &format!("{prefix}output.dense"))?;
    w.norm(dev, &mut block.norm2, &format!("{prefix}output.LayerNorm"))
}
// ANCHOR_END: block_names

impl<
        const V: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const P: usize,
        const T: usize,
        Dev: Device<f32>,
    > Bert<V, M, H, DK, F, L, P, T, f32, Dev>
{
    /// A BERT whose every weight comes from `entries` (Hugging Face's names, without a `bert.`
    /// prefix), with the activation and `eps` of `config`.
    pub fn from_entries(dev: &Dev, mut w: Entries, config: &BertConfig) -> Result<Self, String> {
        let mut bert = Self::new(dev);
        bert.set_bert_settings(config.layer_norm_eps);
        let activation = config.activation()?;
        let e = &mut bert.embeddings;
        e.word.weight = w.matrix(dev, "embeddings.word_embeddings.weight")?;
        e.position.weight = w.matrix(dev, "embeddings.position_embeddings.weight")?;
        e.token_type.weight = w.matrix(dev, "embeddings.token_type_embeddings.weight")?;
        w.norm(dev, &mut e.norm, "embeddings.LayerNorm")?;
        for (i, block) in bert.encoder.layers.iter_mut().enumerate() {
            load_block(dev, &mut w, block, &format!("encoder.layer.{i}."))?;
            block.ffn.activation = activation;
        }
        w.finish()?;
        Ok(bert)
    }
}
