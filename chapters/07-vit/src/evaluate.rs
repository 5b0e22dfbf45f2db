//! A trained model scored on the digits: its predictions and accuracy, the confusion matrix and
//! the misclassified images.

use dfdx::prelude::*;
use support::argmax;

use crate::digits::{Digits, CLASSES};
use crate::model::DigitsModel;
use crate::Mode;

/// The model's digit for every image of `data` (evaluation mode, batches of 256).
pub fn predict<Model: DigitsModel<Dev>, Dev: Device<f32>>(
    model: &Model,
    dev: &Dev,
    data: &Digits,
) -> Vec<u8> {
    let indices: Vec<usize> = (0..data.len()).collect();
    let mut out = Vec::with_capacity(data.len());
    for chunk in indices.chunks(256) {
        let logits = model.logits(data.images(dev, chunk), Mode::Eval).as_vec();
        out.extend(logits.chunks(CLASSES).map(|row| argmax(row) as u8));
    }
    out
}

/// The share of `predicted` that equals `labels`.
pub fn accuracy(predicted: &[u8], labels: &[u8]) -> f64 {
    assert_eq!(predicted.len(), labels.len(), "one prediction per label");
    let hits = predicted.iter().zip(labels).filter(|(p, l)| p == l).count();
    hits as f64 / labels.len() as f64
}

/// `matrix[true digit][predicted digit]`: how many test images of each digit got each answer.
/// The diagonal holds the correct answers.
// ANCHOR: confusion
pub fn confusion_matrix(predicted: &[u8], labels: &[u8]) -> [[usize; CLASSES]; CLASSES] {
    assert_eq!(predicted.len(), labels.len(), "one prediction per label");
    let mut matrix = [[0; CLASSES]; CLASSES];
    for (&p, &l) in predicted.iter().zip(labels) {
        matrix[l as usize][p as usize] += 1;
    }
    matrix
}
// ANCHOR_END: confusion

/// The indices of the images whose prediction is not their label, in order.
pub fn misclassified(predicted: &[u8], labels: &[u8]) -> Vec<usize> {
    assert_eq!(predicted.len(), labels.len(), "one prediction per label");
    (0..labels.len()).filter(|&i| predicted[i] != labels[i]).collect()
}

/// The confusion matrix as text: a header of predicted digits, one row per true digit.
pub fn format_confusion(matrix: &[[usize; CLASSES]; CLASSES]) -> String {
    let mut out = String::from("true\\predicted");
    for p in 0..CLASSES {
        out += &format!("{p:>4}");
    }
    for (t, row) in matrix.iter().enumerate() {
        out += &format!("\n{t:>14}");
        for &n in row {
            out += &format!("{n:>4}");
        }
    }
    out
}
