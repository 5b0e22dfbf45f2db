//! What BERT's heads look at, measured as Clark et al. (2019) did for BERT-base: the share of
//! attention on `[CLS]`, on `[SEP]` and on punctuation, and heads that attend to the previous or
//! the next token, over real text. And, as Kobayashi et al. (2020) did, how much of what a head
//! adds comes from `[CLS]` and `[SEP]`: a weight times the length of the value it weighs.

use std::path::PathBuf;

use ch03_multi_head::MultiHeadAttention;
use ch05_blocks::Mode;
use ch11_real_llm::heads::HeadScores;
use dfdx::prelude::*;
use serde::{Deserialize, Serialize};

use crate::corpus::entries;
use crate::sentence::SentenceEncoder;

/// The texts measured: the first [`SEGMENTS`] dictionary entries of 24 to 128 tokens.
pub const SEGMENTS: usize = 64;
/// The shortest and longest entry used, in tokens (`[CLS]` and `[SEP]` included).
pub const TOKENS: (usize, usize) = (24, 128);

/// Per head (layers × heads), the mean weight of a query on each kind of key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Looks {
    /// texts and their tokens in all
    pub segments: usize,
    pub tokens: usize,
    /// the mean of `1 / length` over the queries: what a head spreading its weight evenly would
    /// put on any one key
    pub even_spread: f64,
    /// on `[CLS]`, the first token
    pub cls: HeadScores,
    /// on `[SEP]`, the last token
    pub sep: HeadScores,
    /// on `.` and `,` together
    pub punctuation: HeadScores,
    /// on the token before the query
    pub previous: HeadScores,
    /// on the token after the query
    pub next: HeadScores,
    /// `[CLS]`'s share of what the head adds, by length: `w(q, [CLS]) · ‖f([CLS])‖` over the
    /// sum of `w(q, k) · ‖f(k)‖` for every key `k`, where `f(k)` is the key's value after the
    /// output projection ([`value_lengths`])
    pub cls_by_length: HeadScores,
    /// the same for `[SEP]`
    pub sep_by_length: HeadScores,
    /// whole maps of three heads on [`EXAMPLE`]: the strongest on `[CLS]`, on the previous token
    /// and on the next token
    pub maps: Vec<HeadMap>,
}

/// The sentence whose maps the page shows.
pub const EXAMPLE: &str = "The cat sat on the mat, and the dog slept by the door.";

/// One head's weights on one text: `weights[q * tokens.len() + k]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadMap {
    /// what the head was chosen for
    pub role: String,
    /// counted from 1
    pub layer: usize,
    pub head: usize,
    pub tokens: Vec<String>,
    pub weights: Vec<f32>,
}

/// The map of `head` in `layer` (both from 0) on `text`.
pub fn head_map<Dev: Device<f32>>(
    encoder: &SentenceEncoder<Dev>,
    text: &str,
    (layer, head): (usize, usize),
    role: &str,
) -> HeadMap {
    let enc = encoder.tokenizer.encode(text);
    let n = enc.ids.len();
    let dev = encoder.model.embeddings.norm.gamma.device().clone();
    let out = encoder.model.forward(dev.tensor_from_vec(enc.ids, (1, n)), None);
    let w = out.weights[layer].as_vec();
    HeadMap {
        role: role.into(),
        layer: layer + 1,
        head: head + 1,
        tokens: enc.tokens,
        weights: w[head * n * n..(head + 1) * n * n].to_vec(),
    }
}

/// The token ids of the measured texts.
pub fn segments<Dev: Device<f32>>(encoder: &SentenceEncoder<Dev>) -> Vec<Vec<usize>> {
    entries()
        .iter()
        .map(|e| encoder.ids(e))
        .filter(|ids| (TOKENS.0..=TOKENS.1).contains(&ids.len()))
        .take(SEGMENTS)
        .collect()
}

/// Sums, per head, of the weights of each kind, and how many queries they were summed over.
#[derive(Default)]
struct Sums {
    kinds: [Vec<f64>; 7], // cls, sep, punctuation, previous, next, cls and sep by length
    counts: [f64; 7],
}

/// Per head and token, the length of what the token adds to the block's output when a query
/// puts all of that head's weight on it: `‖f(x_j)‖ = ‖(x_j W_V + b_V)_h W_O,h‖`, the head's part
/// of the value, through the head's columns of the output projection (its bias is left out: it
/// is added whatever the weights). A weight `w` on the token adds a vector of length
/// `w · ‖f(x_j)‖`: Kobayashi et al. (2020)'s measure. `x`: one text's input to the block
/// `(1, n, M)`; the result is `[h * n + j]`.
pub fn value_lengths<const M: usize, const H: usize, const DK: usize, Dev: Device<f32>>(
    attention: &MultiHeadAttention<M, H, DK, f32, Dev>,
    x: Tensor<(usize, usize, Const<M>), f32, Dev>,
) -> Vec<f64> {
    let n = x.shape().1;
    let values = attention.w_v.forward(x).as_vec(); // (1, n, M): head h is columns h*DK..
    let w_o = attention.w_o.weight.as_vec(); // (M out, M in), row-major
    let mut lengths = vec![0.0; H * n];
    for h in 0..H {
        for j in 0..n {
            let v = &values[j * M + h * DK..j * M + (h + 1) * DK];
            let squares: f64 = (0..M)
                .map(|o| {
                    let row = &w_o[o * M + h * DK..o * M + (h + 1) * DK];
                    let f: f64 = row.iter().zip(v).map(|(a, b)| f64::from(a * b)).sum();
                    f * f
                })
                .sum();
            lengths[h * n + j] = squares.sqrt();
        }
    }
    lengths
}

/// Reads every layer's weights on the measured texts (one at a time, so there is no padding).
// ANCHOR: looks
pub fn measure<Dev: Device<f32>>(encoder: &SentenceEncoder<Dev>) -> Looks {
    const H: usize = 12;
    let layers = encoder.model.encoder.layers.len();
    let dev = encoder.model.embeddings.norm.gamma.device().clone();
    let punctuation: Vec<usize> =
        [".", ","].iter().filter_map(|t| encoder.tokenizer.id(t)).collect();
    let mut sums = Sums::default();
    sums.kinds.iter_mut().for_each(|k| *k = vec![0.0; layers * H]);
    let mut tokens = 0;
    let texts = segments(encoder);
    for ids in &texts {
        let n = ids.len();
        tokens += n;
        let types = dev.tensor_from_vec(vec![0; n], (1, n));
        let mut x = encoder.model.embed(dev.tensor_from_vec(ids.clone(), (1, n)), types);
        for (l, block) in encoder.model.encoder.layers.iter().enumerate() {
            let lengths = value_lengths(&block.self_attn, x.clone()); // [h * n + k]
            let (y, w) = block.forward(x, None, Mode::Eval);
            x = y;
            let w = w.as_vec(); // (1, heads, n, n)
            for h in 0..H {
                let map = &w[h * n * n..(h + 1) * n * n];
                let at = |q: usize, k: usize| f64::from(map[q * n + k]);
                let length = |k: usize| lengths[h * n + k];
                let i = l * H + h;
                for q in 0..n {
                    sums.kinds[0][i] += at(q, 0);
                    sums.kinds[1][i] += at(q, n - 1);
                    let p = (0..n).filter(|&k| punctuation.contains(&ids[k]));
                    sums.kinds[2][i] += p.map(|k| at(q, k)).sum::<f64>();
                    if q > 0 {
                        sums.kinds[3][i] += at(q, q - 1);
                    }
                    if q + 1 < n {
                        sums.kinds[4][i] += at(q, q + 1);
                    }
                    let added: f64 = (0..n).map(|k| at(q, k) * length(k)).sum();
                    sums.kinds[5][i] += at(q, 0) * length(0) / added;
                    sums.kinds[6][i] += at(q, n - 1) * length(n - 1) / added;
                }
            }
        }
        let counts = [n, n, n, n - 1, n - 1, n, n];
        sums.counts.iter_mut().zip(counts).for_each(|(c, n)| *c += n as f64);
    }
    let mean = |k: usize| HeadScores {
        heads: H,
        values: sums.kinds[k].iter().map(|s| s / sums.counts[k]).collect(),
    };
    let (cls, previous, next) = (mean(0), mean(3), mean(4));
    let strongest = |scores: &HeadScores| {
        let (l, h, _) = scores.top(1)[0];
        (l, h)
    };
    let maps = vec![
        head_map(encoder, EXAMPLE, strongest(&cls), "[CLS]"),
        head_map(encoder, EXAMPLE, strongest(&previous), "previous token"),
        head_map(encoder, EXAMPLE, strongest(&next), "next token"),
    ];
    Looks {
        segments: texts.len(),
        tokens,
        // each text's n queries would each put 1/n on a key: texts / tokens on average
        even_spread: texts.len() as f64 / tokens as f64,
        cls,
        sep: mean(1),
        punctuation: mean(2),
        previous,
        next,
        cls_by_length: mean(5),
        sep_by_length: mean(6),
        maps,
    }
}
// ANCHOR_END: looks

impl Looks {
    /// Per layer, the mean over its heads of a score.
    pub fn per_layer(scores: &HeadScores) -> Vec<f64> {
        scores.values.chunks(scores.heads).map(|l| l.iter().sum::<f64>() / l.len() as f64).collect()
    }
}

/// `measurements/looks.json`, the committed reading the page's figures are drawn from.
pub fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("measurements/looks.json")
}

/// The committed reading.
pub fn committed() -> Looks {
    let text = std::fs::read_to_string(committed_path()).expect("measurements/looks.json");
    serde_json::from_str(&text).expect("measurements/looks.json is a reading")
}
