//! The UCI optical-recognition handwritten digits: 1,797 grey images of 8×8 pixels, each pixel a
//! count from 0 to 16, ten classes. The data ships inside this crate (`data/digits.csv`, see
//! `data/README.md` for provenance and licence); nothing is downloaded.

use dfdx::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The side of an image, in pixels.
pub const SIDE: usize = 8;
/// Pixels per image.
pub const PIXELS: usize = SIDE * SIDE;
/// The digits 0 to 9.
pub const CLASSES: usize = 10;
/// The largest pixel value (a count of "on" pixels in a 4×4 block of the original 32×32 bitmap).
pub const MAX_VALUE: u8 = 16;

/// One line per image: its 64 pixel values, row by row, then its label.
const CSV: &str = include_str!("../data/digits.csv");

/// A set of digit images and their labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digits {
    /// raw pixel values 0..=16, row by row
    pub pixels: Vec<[u8; PIXELS]>,
    /// the digit each image shows
    pub labels: Vec<u8>,
}

/// A training set and a test set that share no image.
#[derive(Clone, Debug)]
pub struct Split {
    pub train: Digits,
    pub test: Digits,
}

impl Digits {
    /// All 1,797 images, in the order of the file.
    pub fn load() -> Self {
        let mut digits = Digits { pixels: Vec::new(), labels: Vec::new() };
        for (n, line) in CSV.lines().enumerate() {
            let values: Vec<u8> = line
                .split(',')
                .map(|v| v.trim().parse().unwrap_or_else(|e| panic!("digits.csv:{}: {e}", n + 1)))
                .collect();
            assert_eq!(values.len(), PIXELS + 1, "digits.csv:{}: 64 pixels and a label", n + 1);
            let (pixels, label) = values.split_at(PIXELS);
            digits.pixels.push(pixels.try_into().expect("64 values"));
            digits.labels.push(label[0]);
        }
        digits
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// How many images of each digit.
    pub fn class_counts(&self) -> [usize; CLASSES] {
        let mut counts = [0; CLASSES];
        for &l in &self.labels {
            counts[l as usize] += 1;
        }
        counts
    }

    /// The images at `indices`, in that order.
    pub fn subset(&self, indices: &[usize]) -> Self {
        Digits {
            pixels: indices.iter().map(|&i| self.pixels[i]).collect(),
            labels: indices.iter().map(|&i| self.labels[i]).collect(),
        }
    }

    /// A stratified split: within each class, a seeded shuffle, then the first
    /// `floor(count * train_fraction)` images go to training and the rest to the test set, so both
    /// sets have (almost exactly) the classes' proportions. Both keep the file's order.
    pub fn stratified_split(&self, train_fraction: f64, seed: u64) -> Split {
        assert!(
            (0.0..=1.0).contains(&train_fraction),
            "train_fraction must be in [0, 1], got {train_fraction}"
        );
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let (mut train, mut test) = (Vec::new(), Vec::new());
        for class in 0..CLASSES as u8 {
            let mut members: Vec<usize> =
                (0..self.len()).filter(|&i| self.labels[i] == class).collect();
            members.shuffle(&mut rng);
            let n_train = (members.len() as f64 * train_fraction).floor() as usize;
            train.extend_from_slice(&members[..n_train]);
            test.extend_from_slice(&members[n_train..]);
        }
        train.sort_unstable();
        test.sort_unstable();
        Split { train: self.subset(&train), test: self.subset(&test) }
    }

    /// Image `i` with its pixels scaled to `[0, 1]` (divided by 16).
    pub fn scaled(&self, i: usize) -> [f32; PIXELS] {
        self.pixels[i].map(|v| f32::from(v) / f32::from(MAX_VALUE))
    }

    /// The images at `indices` as a `(batch, 1, 8, 8)` tensor with pixels in `[0, 1]`.
    pub fn images<Dev: Device<f32>>(
        &self,
        dev: &Dev,
        indices: &[usize],
    ) -> Tensor<(usize, Const<1>, Const<SIDE>, Const<SIDE>), f32, Dev> {
        let data = indices.iter().flat_map(|&i| self.scaled(i)).collect();
        dev.tensor_from_vec(data, (indices.len(), Const, Const, Const))
    }

    /// The labels at `indices` as one-hot rows `(batch, 10)`: the target probabilities that
    /// `cross_entropy_with_logits_loss` takes.
    pub fn one_hot<Dev: Device<f32>>(
        &self,
        dev: &Dev,
        indices: &[usize],
    ) -> Tensor<(usize, Const<CLASSES>), f32, Dev> {
        let mut data = vec![0.0; indices.len() * CLASSES];
        for (row, &i) in indices.iter().enumerate() {
            data[row * CLASSES + self.labels[i] as usize] = 1.0;
        }
        dev.tensor_from_vec(data, (indices.len(), Const))
    }
}

/// The image moved `dy` rows down and `dx` columns right, with zeros shifted in.
pub fn shifted(pixels: &[f32; PIXELS], dy: isize, dx: isize) -> [f32; PIXELS] {
    let mut out = [0.0; PIXELS];
    for r in 0..SIDE as isize {
        for c in 0..SIDE as isize {
            let (sr, sc) = (r - dy, c - dx);
            if (0..SIDE as isize).contains(&sr) && (0..SIDE as isize).contains(&sc) {
                out[(r * SIDE as isize + c) as usize] = pixels[(sr * SIDE as isize + sc) as usize];
            }
        }
    }
    out
}
