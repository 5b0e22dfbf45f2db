//! Reading the model: the decoder's cross-attention, per layer and head, for one input.

use ch01_attention::{broadcast_mask, causal_allowed};
use dfdx::prelude::*;
use support::argmax;

use crate::data::ids;
use crate::data::tokens;
use crate::decode::greedy;
use crate::presets::{Reverser, HEADS};
use crate::vocab::{digit_token, SOS};

/// Cross-attention of one sequence: `maps[layer][head][output][input]`. Output `i` is the token
/// the decoder wrote at step `i` (the digits of its answer, then `EOS`).
#[derive(Clone, Debug, PartialEq)]
pub struct CrossAttention {
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    pub maps: Vec<Vec<Vec<Vec<f32>>>>,
}

// ANCHOR: cross_attention
/// Greedy answer for `digits`, then the decoder run once more on `SOS` + answer (the inputs it
/// saw while writing), keeping every layer's cross-attention weights.
pub fn cross_attention<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    digits: &[u8],
) -> CrossAttention {
    let answer = greedy(model, dev, &[digits.to_vec()]).remove(0);
    let src = vec![tokens(digits).0];
    let tgt: Vec<usize> =
        std::iter::once(SOS).chain(answer.iter().map(|&d| digit_token(d))).collect();
    let (memory, _) = model.encode(ids(dev, &src), None);
    let causal = broadcast_mask(causal_allowed(dev, tgt.len()), 1, Const::<HEADS>);
    let (_, layers) =
        model.decode(ids(dev, std::slice::from_ref(&tgt)), &memory, Some(&causal), None);
    let (rows, cols) = (tgt.len(), digits.len());
    let maps = layers
        .iter()
        .map(|w| {
            let flat = w.cross_attn.as_vec(); // (1, heads, rows, cols)
            flat.chunks(rows * cols)
                .map(|head| head.chunks(cols).map(<[f32]>::to_vec).collect())
                .collect()
        })
        .collect();
    CrossAttention { input: digits.to_vec(), answer, maps }
}
// ANCHOR_END: cross_attention

impl CrossAttention {
    /// The mean over heads of one layer's map.
    pub fn head_mean(&self, layer: usize) -> Vec<Vec<f32>> {
        let heads = &self.maps[layer];
        let mut mean = heads[0].clone();
        for head in &heads[1..] {
            for (m, r) in mean.iter_mut().zip(head) {
                m.iter_mut().zip(r).for_each(|(a, b)| *a += b);
            }
        }
        mean.iter_mut().flatten().for_each(|a| *a /= heads.len() as f32);
        mean
    }

    /// For output digit `i` (of `n`), the input position holding it when reversed: `n - 1 - i`.
    /// The share of output digits whose strongest cross-attention, in `layer` and `head`, falls
    /// on exactly that position.
    pub fn mirrored_share(&self, layer: usize, head: usize) -> f64 {
        let n = self.input.len();
        let map = &self.maps[layer][head];
        let hits = (0..n).filter(|&i| argmax(&map[i]) == n - 1 - i).count();
        hits as f64 / n as f64
    }
}

/// The map as text: one row per output token, one column per input digit, shaded by weight.
pub fn render(map: &[Vec<f32>], input: &[u8], answer: &[u8]) -> String {
    const SHADES: [char; 5] = [' ', '░', '▒', '▓', '█'];
    let mut out = String::from("        ");
    out += &input.iter().map(|d| format!(" {d} ")).collect::<String>();
    out += "  <- input\n";
    let labels = answer.iter().map(|d| d.to_string()).chain(std::iter::once("EOS".to_string()));
    for (row, label) in map.iter().zip(labels) {
        out += &format!("{label:>6}  ");
        for &w in row {
            let shade = SHADES[((w * 4.0).round() as usize).min(4)];
            out += &format!("{shade}{shade}{shade}");
        }
        out += "\n";
    }
    out
}

// ANCHOR: mirrored_shares
/// For each layer and head: over all output digits of `inputs`, the share whose strongest
/// cross-attention falls on the mirrored input position (output `i` of `n` on input `n - 1 - i`).
pub fn mirrored_shares<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    inputs: &[Vec<u8>],
) -> Vec<Vec<f64>> {
    let reads: Vec<CrossAttention> =
        inputs.iter().map(|d| cross_attention(model, dev, d)).collect();
    let digits: usize = inputs.iter().map(Vec::len).sum();
    let (layers, heads) = (reads[0].maps.len(), reads[0].maps[0].len());
    (0..layers)
        .map(|l| {
            (0..heads)
                .map(|h| {
                    let hits: f64 =
                        reads.iter().map(|r| r.mirrored_share(l, h) * r.input.len() as f64).sum();
                    hits / digits as f64
                })
                .collect()
        })
        .collect()
}
// ANCHOR_END: mirrored_shares

/// Where the `EOS` row looks. For each of `inputs` that the model reverses exactly, the input
/// position (from the start) on which the last row of `layer`'s map, averaged over the heads, puts
/// its largest weight; counted per position (`counts[p]`: how many inputs had it on position `p`).
pub fn eos_strongest_positions<Dev: Device<f32>>(
    model: &Reverser<Dev>,
    dev: &Dev,
    inputs: &[Vec<u8>],
    layer: usize,
) -> Vec<usize> {
    let longest = inputs.iter().map(Vec::len).max().unwrap_or(0);
    let mut counts = vec![0; longest];
    for digits in inputs {
        let read = cross_attention(model, dev, digits);
        if digits.iter().rev().eq(read.answer.iter()) {
            let mean = read.head_mean(layer);
            counts[argmax(&mean[digits.len()])] += 1;
        }
    }
    counts
}
