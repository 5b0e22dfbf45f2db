//! Chapter 2 in the page: the "bank loan" example with every matrix editable. The reader changes
//! the two embeddings or `W_Q`, `W_K`, `W_V` and sees the queries, keys, values, scores, weights
//! and outputs of the chapter's layer, beside the scores the embeddings alone would give.

use ch01_attention::simple_self_attention;
use ch02_qkv::{bank_loan, tokens, QkvAttention};
use dfdx::prelude::*;

/// Two tokens, two dimensions: every matrix of the example is 2 × 2.
const SIDE: usize = 2;
/// The example's numbers in the order the page sends them: `X`, `W_Q`, `W_K`, `W_V`, row by row.
pub const INPUTS: usize = 4 * SIDE * SIDE;

/// The chapter's matrices, [`INPUTS`] numbers.
pub fn chapter() -> Vec<f32> {
    [bank_loan::X, bank_loan::W_Q, bank_loan::W_K, bank_loan::W_V].concat().concat()
}

/// For [`INPUTS`] numbers: `Q`, `K`, `V`, the scaled scores, the weights, the outputs, and the
/// scores `X Xᵀ` of chapter 1's attention without projections: seven 2 × 2 matrices.
pub fn bank_loan(values: &[f32]) -> Result<Vec<f32>, String> {
    if values.len() != INPUTS {
        return Err(format!("the example takes {INPUTS} numbers; got {}", values.len()));
    }
    if let Some(bad) = values.iter().find(|x| !x.is_finite()) {
        return Err(format!("every number must be finite; got {bad}"));
    }
    let m = |k: usize| -> [[f32; SIDE]; SIDE] {
        let at = |r: usize, c: usize| values[k * SIDE * SIDE + r * SIDE + c];
        [[at(0, 0), at(0, 1)], [at(1, 0), at(1, 1)]]
    };
    let dev = Cpu::default();
    let x = tokens(&dev, &m(0));
    let out = QkvAttention::<SIDE, SIDE, SIDE, _>::from_matrices(&dev, m(1), m(2), m(3))
        .forward(x.clone());
    let shared = simple_self_attention(&x).scores.as_vec();
    Ok([
        out.q.as_vec(),
        out.k.as_vec(),
        out.v.as_vec(),
        out.scores.as_vec(),
        out.weights.as_vec(),
        out.output.as_vec(),
        shared,
    ]
    .concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chapters_matrices_give_the_chapters_numbers() {
        let out = bank_loan(&chapter()).unwrap();
        assert_eq!(out.len(), 7 * 4);
        // "bank" splits its attention evenly, and its output is [1.2, 1.4]
        assert!((out[16] - 0.5).abs() < 1e-6 && (out[17] - 0.5).abs() < 1e-6, "{out:?}");
        assert!((out[20] - 1.2).abs() < 1e-6 && (out[21] - 1.4).abs() < 1e-6, "{out:?}");
        // without projections "bank" scores itself 1.25 and "loan" 0.65
        assert!((out[24] - 1.25).abs() < 1e-6 && (out[25] - 0.65).abs() < 1e-6, "{out:?}");
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(bank_loan(&[1.0; 3]).unwrap_err().contains("16 numbers"));
        let mut values = chapter();
        values[5] = f32::NAN;
        assert!(bank_loan(&values).unwrap_err().contains("finite"));
    }
}
