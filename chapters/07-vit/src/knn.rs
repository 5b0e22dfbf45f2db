//! The baseline a learned model must beat: 1-nearest-neighbour, which labels each test image with
//! the label of the closest training image (squared Euclidean distance on the raw pixels).

use crate::digits::Digits;

/// The label of the training image nearest to `pixels`; on a tie, the first such image.
pub fn nearest_label(train: &Digits, pixels: &[u8]) -> u8 {
    let distance = |other: &[u8]| -> u32 {
        pixels
            .iter()
            .zip(other)
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).unsigned_abs().pow(2))
            .sum()
    };
    let (nearest, _) = train
        .pixels
        .iter()
        .enumerate()
        .map(|(i, p)| (i, distance(p)))
        .min_by_key(|&(i, d)| (d, i))
        .expect("the training set is not empty");
    train.labels[nearest]
}

/// 1-NN predictions for every test image.
pub fn predict(train: &Digits, test: &Digits) -> Vec<u8> {
    test.pixels.iter().map(|p| nearest_label(train, p)).collect()
}

/// How many test images 1-NN labels correctly, out of how many.
pub fn correct(train: &Digits, test: &Digits) -> (usize, usize) {
    let hits = predict(train, test).iter().zip(&test.labels).filter(|(p, l)| p == l).count();
    (hits, test.len())
}
