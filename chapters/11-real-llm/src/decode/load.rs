//! Where a [`Decoder`]'s weights come from: the GGUF file (as stored, or dequantized to `f32`),
//! or a chapter 10 [`CausalLm`] already in memory.

use ch08_efficient::fast::Isa;
use ch10_language_models::CausalLm;
use dfdx::prelude::*;

use super::matrix::Matrix;
use super::model::{Decoder, Layer};
use super::sizes::Sizes;
use crate::gguf::{dequantize, Gguf};
use crate::smollm2;

/// How the file's matrices are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// in their Q4_1 and Q8_0 blocks, as stored: 5 and 8.5 bits per weight (20 and 34 bytes
    /// per block of 32)
    Quantized,
    /// expanded to `f32`: the numbers chapter 10's model runs on, 32 bits per weight
    Dequantized,
}

impl Decoder {
    /// SmolLM2 from its GGUF file: sizes checked and settings read as
    /// [`smollm2::from_gguf`] does, RoPE as published (interleaved, on the file's rows).
    pub fn from_gguf(file: &Gguf, weights: Weights) -> Result<Decoder, String> {
        let settings = smollm2::settings(file)?;
        let c = smollm2::CONFIG;
        let sizes = Sizes {
            vocab: c.vocab_size,
            hidden: c.hidden_size,
            heads: c.num_attention_heads,
            kv_heads: c.num_key_value_heads,
            head_dim: c.head_dim,
            intermediate: c.intermediate_size,
        };
        let info =
            |name: &str| file.tensor(name).ok_or_else(|| format!("tensor {name:?} is missing"));
        let matrix = |name: &str, rows: usize, cols: usize| -> Result<Matrix, String> {
            let t = info(name)?;
            // GGUF lists dimensions innermost first: [cols, rows]
            if t.dims != [cols as u64, rows as u64] {
                return Err(format!("tensor {name:?} has dims {:?}, not [{cols}, {rows}]", t.dims));
            }
            Matrix::from_stored(
                t.kind,
                rows,
                cols,
                file.tensor_data(t),
                weights == Weights::Dequantized,
            )
            .map_err(|e| format!("tensor {name:?}: {e}"))
        };
        let vector = |name: &str, len: usize| -> Result<Vec<f32>, String> {
            let t = info(name)?;
            let v = dequantize(t.kind, file.tensor_data(t));
            match v.len() == len {
                true => Ok(v),
                false => Err(format!("tensor {name:?} has {} values, not {len}", v.len())),
            }
        };
        let (h, kv, ff) = (sizes.hidden, sizes.kv_heads * sizes.head_dim, sizes.intermediate);
        let layers = (0..c.num_hidden_layers)
            .map(|i| {
                let name = |part: &str| format!("blk.{i}.{part}.weight");
                Ok(Layer {
                    attn_norm: vector(&name("attn_norm"), h)?,
                    q: matrix(&name("attn_q"), h, h)?,
                    k: matrix(&name("attn_k"), kv, h)?,
                    v: matrix(&name("attn_v"), kv, h)?,
                    o: matrix(&name("attn_output"), h, h)?,
                    ffn_norm: vector(&name("ffn_norm"), h)?,
                    gate: matrix(&name("ffn_gate"), ff, h)?,
                    up: matrix(&name("ffn_up"), ff, h)?,
                    down: matrix(&name("ffn_down"), h, ff)?,
                })
            })
            .collect::<Result<Vec<Layer>, String>>()?;
        Ok(Decoder {
            sizes,
            embed: matrix("token_embd.weight", sizes.vocab, h)?,
            output: None,
            layers,
            norm: vector("output_norm.weight", h)?,
            eps: settings.eps as f32,
            rope: settings.rope,
            isa: Isa::chosen(),
        })
    }

    /// The weights of a chapter 10 model, copied into `f32` matrices.
    pub fn from_model<
        const VOCAB: usize,
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
        const INTERMEDIATE: usize,
        const LAYERS: usize,
        Dev: Device<f32>,
    >(
        model: &CausalLm<
            VOCAB,
            HIDDEN,
            HEADS,
            KV_HEADS,
            HEAD_DIM,
            KV_WIDTH,
            INTERMEDIATE,
            LAYERS,
            f32,
            Dev,
        >,
    ) -> Decoder {
        let m = |rows: usize, cols: usize, w: Vec<f32>| Matrix::f32(rows, cols, w);
        let layers = model
            .layers
            .iter()
            .map(|b| {
                let (a, f) = (&b.self_attn, &b.mlp);
                Layer {
                    attn_norm: b.input_layernorm.weight.as_vec(),
                    q: m(HIDDEN, HIDDEN, a.q_proj.weight.as_vec()),
                    k: m(KV_WIDTH, HIDDEN, a.k_proj.weight.as_vec()),
                    v: m(KV_WIDTH, HIDDEN, a.v_proj.weight.as_vec()),
                    o: m(HIDDEN, HIDDEN, a.o_proj.weight.as_vec()),
                    ffn_norm: b.post_attention_layernorm.weight.as_vec(),
                    gate: m(INTERMEDIATE, HIDDEN, f.gate_proj.weight.as_vec()),
                    up: m(INTERMEDIATE, HIDDEN, f.up_proj.weight.as_vec()),
                    down: m(HIDDEN, INTERMEDIATE, f.down_proj.weight.as_vec()),
                }
            })
            .collect();
        Decoder {
            sizes: Sizes {
                vocab: VOCAB,
                hidden: HIDDEN,
                heads: HEADS,
                kv_heads: KV_HEADS,
                head_dim: HEAD_DIM,
                intermediate: INTERMEDIATE,
            },
            embed: m(VOCAB, HIDDEN, model.embed_tokens.weight.as_vec()),
            output: Some(m(VOCAB, HIDDEN, model.lm_head.weight.as_vec())),
            layers,
            norm: model.norm.weight.as_vec(),
            eps: model.norm.eps as f32,
            rope: model.rope,
            isa: Isa::chosen(),
        }
    }
}
