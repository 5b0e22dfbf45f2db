//! The weights from CTranslate2's `model.bin`, by the names its Whisper converter gives them, put
//! into chapter 5's blocks. CTranslate2 stores the model for speed: self-attention's query, key
//! and value projections as one `(1152, 384)` matrix, cross-attention's key and value as one
//! `(768, 384)`, and the output projection only as an alias of the token table. Here each is cut
//! back into the three (or two) `Linear` layers chapter 3 has. Every variable of the file is
//! used or checked, and any other is an error: nothing is left behind by accident.

use std::collections::BTreeSet;

use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::{Activation, FeedForward, LayerNorm};
use dfdx::nn::modules::Linear;
use dfdx::prelude::*;

use super::{AudioBlocks, Conv1d, TextBlocks, Whisper};
use crate::config::{AUDIO_POSITIONS, FF, HEADS, HEAD_DIM, N_MELS, TEXT_POSITIONS, VOCAB, WIDTH};
use crate::ct2::ModelBin;

/// The settings the file stores as scalars, and the values this model is built for: 6 heads,
/// pre-norm, GELU (CTranslate2's activation code 3), no ALiBi, no embedding scale, positions from
/// 0.
pub const SETTINGS: [(&str, i64); 9] = [
    ("encoder/num_heads", HEADS as i64),
    ("decoder/num_heads", HEADS as i64),
    ("decoder/pre_norm", 1),
    ("decoder/activation", 3),
    ("decoder/alibi", 0),
    ("decoder/scale_embeddings", 0),
    ("decoder/start_from_zero_embedding", 0),
    // the number of alignment heads CTranslate2 uses when config.json names none, and the layer
    // it would take them from (-1: the last half); config.json names them, so these are unused
    ("decoder/alignment_heads", 1),
    ("decoder/alignment_layer", -1),
];

/// Reads variables by name and remembers which were read.
struct Reader<'a, Dev> {
    bin: &'a ModelBin,
    dev: Dev,
    read: BTreeSet<String>,
}

impl<Dev: Device<f32>> Reader<'_, Dev> {
    fn take(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
        self.read.insert(name.to_owned());
        self.bin.f32s(name, shape).map_err(|e| e.to_string())
    }

    fn vector<const N: usize>(
        &mut self,
        name: &str,
    ) -> Result<Tensor<(Const<N>,), f32, Dev>, String> {
        let values = self.take(name, &[N])?;
        Ok(self.dev.tensor_from_vec(values, (Const::<N>,)))
    }

    fn table(
        &mut self,
        name: &str,
        rows: usize,
    ) -> Result<Tensor<(usize, Const<WIDTH>), f32, Dev>, String> {
        let values = self.take(name, &[rows, WIDTH])?;
        Ok(self.dev.tensor_from_vec(values, (rows, Const::<WIDTH>)))
    }

    fn norm(&mut self, norm: &mut LayerNorm<WIDTH, f32, Dev>, name: &str) -> Result<(), String> {
        norm.gamma = self.vector(&format!("{name}/gamma"))?;
        norm.beta = self.vector(&format!("{name}/beta"))?;
        Ok(())
    }

    /// `Linear`s cut from one stored `(parts · O, I)` matrix and its bias: part `i` is rows
    /// `i·O .. (i+1)·O`.
    fn fused<const I: usize, const O: usize>(
        &mut self,
        name: &str,
        parts: &mut [&mut Linear<I, O, f32, Dev>],
    ) -> Result<(), String> {
        let n = parts.len();
        let weight = self.take(&format!("{name}/weight"), &[n * O, I])?;
        let bias = self.take(&format!("{name}/bias"), &[n * O])?;
        for (i, part) in parts.iter_mut().enumerate() {
            part.weight = (self.dev).tensor_from_vec(
                weight[i * O * I..(i + 1) * O * I].to_vec(),
                (Const::<O>, Const::<I>),
            );
            part.bias = self.dev.tensor_from_vec(bias[i * O..(i + 1) * O].to_vec(), (Const::<O>,));
        }
        Ok(())
    }

    fn ffn(
        &mut self,
        ffn: &mut FeedForward<WIDTH, FF, f32, Dev>,
        name: &str,
    ) -> Result<(), String> {
        self.fused(&format!("{name}/linear_0"), &mut [&mut ffn.linear1])?;
        self.fused(&format!("{name}/linear_1"), &mut [&mut ffn.linear2])?;
        ffn.activation = Activation::Gelu;
        Ok(())
    }

    fn self_attention(
        &mut self,
        a: &mut MultiHeadAttention<WIDTH, HEADS, HEAD_DIM, f32, Dev>,
        name: &str,
    ) -> Result<(), String> {
        self.fused(&format!("{name}/linear_0"), &mut [&mut a.w_q, &mut a.w_k, &mut a.w_v])?;
        self.fused(&format!("{name}/linear_1"), &mut [&mut a.w_o])
    }

    fn cross_attention(
        &mut self,
        a: &mut MultiHeadAttention<WIDTH, HEADS, HEAD_DIM, f32, Dev>,
        name: &str,
    ) -> Result<(), String> {
        self.fused(&format!("{name}/linear_0"), &mut [&mut a.w_q])?;
        self.fused(&format!("{name}/linear_1"), &mut [&mut a.w_k, &mut a.w_v])?;
        self.fused(&format!("{name}/linear_2"), &mut [&mut a.w_o])
    }

    /// A `(WIDTH, C, 3)` convolution weight as its three `(WIDTH, C)` taps.
    fn conv<const C: usize>(&mut self, name: &str) -> Result<Conv1d<C, Dev>, String> {
        let w = self.take(&format!("{name}/weight"), &[WIDTH, C, 3])?;
        let tap = |k: usize| {
            let values = (0..WIDTH * C).map(|oc| w[oc * 3 + k]).collect();
            self.dev.tensor_from_vec(values, (Const::<WIDTH>, Const::<C>))
        };
        let taps = [tap(0), tap(1), tap(2)];
        Ok(Conv1d { taps, bias: self.vector(&format!("{name}/bias"))? })
    }

    fn check_settings(&mut self) -> Result<(), String> {
        for (name, want) in SETTINGS {
            self.read.insert(name.to_owned());
            let got = self.bin.scalar(name).map_err(|e| e.to_string())?;
            if got != want {
                return Err(format!("{name} is {got}; this model is built for {want}"));
            }
        }
        Ok(())
    }
}

impl<Dev: Device<f32>> Whisper<Dev> {
    /// Whisper tiny.en from its `model.bin` (converted to `f32`).
    // ANCHOR: load
    pub fn load(dev: &Dev, bin: &ModelBin) -> Result<Self, String> {
        if bin.spec != "WhisperSpec" {
            return Err(format!("model.bin holds a {:?}, not a WhisperSpec", bin.spec));
        }
        let mut r = Reader { bin, dev: dev.clone(), read: BTreeSet::new() };
        r.check_settings()?;
        let mut encoder = AudioBlocks::new(dev);
        for (i, block) in encoder.layers.iter_mut().enumerate() {
            r.self_attention(&mut block.self_attn, &format!("encoder/layer_{i}/self_attention"))?;
            r.norm(&mut block.norm1, &format!("encoder/layer_{i}/self_attention/layer_norm"))?;
            r.ffn(&mut block.ffn, &format!("encoder/layer_{i}/ffn"))?;
            r.norm(&mut block.norm2, &format!("encoder/layer_{i}/ffn/layer_norm"))?;
        }
        let mut decoder = TextBlocks::new(dev);
        for (i, block) in decoder.layers.iter_mut().enumerate() {
            let p = format!("decoder/layer_{i}");
            r.self_attention(&mut block.self_attn, &format!("{p}/self_attention"))?;
            r.norm(&mut block.norm1, &format!("{p}/self_attention/layer_norm"))?;
            r.cross_attention(&mut block.cross_attn, &format!("{p}/attention"))?;
            r.norm(&mut block.norm2, &format!("{p}/attention/layer_norm"))?;
            r.ffn(&mut block.ffn, &format!("{p}/ffn"))?;
            r.norm(&mut block.norm3, &format!("{p}/ffn/layer_norm"))?;
        }
        let mut whisper = Whisper {
            conv1: r.conv::<N_MELS>("encoder/conv1")?,
            conv2: r.conv::<WIDTH>("encoder/conv2")?,
            audio_positions: r.table("encoder/position_encodings/encodings", AUDIO_POSITIONS)?,
            encoder,
            encoder_norm: LayerNorm::new(dev),
            tokens: r.table("decoder/embeddings/weight", VOCAB)?,
            text_positions: r.table("decoder/position_encodings/encodings", TEXT_POSITIONS)?,
            decoder,
            decoder_norm: LayerNorm::new(dev),
        };
        r.norm(&mut whisper.encoder_norm, "encoder/layer_norm")?;
        r.norm(&mut whisper.decoder_norm, "decoder/layer_norm")?;
        // the output projection is the token table itself
        let tied = bin.variable("decoder/projection/weight").map(|v| v.name.as_str());
        if tied != Some("decoder/embeddings/weight") {
            return Err("decoder/projection/weight is not the token table".into());
        }
        let unread: Vec<_> =
            bin.variables.iter().map(|v| &v.name).filter(|n| !r.read.contains(*n)).collect();
        if !unread.is_empty() {
            return Err(format!("variables this model does not use: {unread:?}"));
        }
        Ok(whisper)
    }
    // ANCHOR_END: load
}

/// The file's parameters, and how many of them Whisper learned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParameterCount {
    /// every element of the file's floating-point variables ([`ModelBin::parameters`])
    pub stored: usize,
    /// the encoder's positions: sinusoids, computed rather than learned (`(1500, 384)`)
    pub sinusoids: usize,
    /// the zeros CTranslate2 stored for the key projections' bias, which Whisper does not have
    pub zero_key_biases: usize,
    /// what is left: the weights training set (OpenAI's PyTorch model counts these as its
    /// parameters; it keeps the sinusoids in a buffer and its key projections have no bias)
    pub learned: usize,
}

/// Counts [`ParameterCount`] in a Whisper `model.bin` of tiny.en's sizes. A key bias counts as
/// CTranslate2's filling only where every one of its values is zero.
pub fn parameter_count(bin: &ModelBin) -> Result<ParameterCount, String> {
    let key_bias = |name: &str, len: usize, keys: std::ops::Range<usize>| {
        let bias = bin.f32s(name, &[len]).map_err(|e| e.to_string())?;
        let all_zero = bias[keys.clone()].iter().all(|&b| b == 0.0);
        Ok::<usize, String>(if all_zero { keys.len() } else { 0 })
    };
    let mut zero_key_biases = 0;
    for i in 0..crate::config::ENCODER_LAYERS {
        let name = format!("encoder/layer_{i}/self_attention/linear_0/bias");
        zero_key_biases += key_bias(&name, 3 * WIDTH, WIDTH..2 * WIDTH)?;
    }
    for i in 0..crate::config::DECODER_LAYERS {
        let name = format!("decoder/layer_{i}/self_attention/linear_0/bias");
        zero_key_biases += key_bias(&name, 3 * WIDTH, WIDTH..2 * WIDTH)?;
        let name = format!("decoder/layer_{i}/attention/linear_1/bias");
        zero_key_biases += key_bias(&name, 2 * WIDTH, 0..WIDTH)?;
    }
    let positions = "encoder/position_encodings/encodings";
    let shape = bin.variable(positions).map(|v| v.shape.clone());
    if shape.as_deref() != Some(&[AUDIO_POSITIONS, WIDTH][..]) {
        return Err(format!("{positions}: {shape:?}, not [{AUDIO_POSITIONS}, {WIDTH}]"));
    }
    let stored = bin.parameters();
    let sinusoids = AUDIO_POSITIONS * WIDTH;
    let learned = (stored.checked_sub(sinusoids + zero_key_biases))
        .ok_or(format!("{stored} floating-point values: fewer than the positions and biases"))?;
    Ok(ParameterCount { stored, sinusoids, zero_key_biases, learned })
}
