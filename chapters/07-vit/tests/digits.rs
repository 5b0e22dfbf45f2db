//! The embedded digits, the stratified split and the 1-nearest-neighbour baseline.

use ch07_vit::digits::{shifted, Digits, CLASSES, MAX_VALUE, PIXELS};
use ch07_vit::knn;
use dfdx::prelude::*;

#[test]
fn worked_example_dataset() {
    let digits = Digits::load();
    assert_eq!(digits.len(), 1_797);
    assert_eq!(digits.class_counts(), [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]);
    assert!(digits.pixels.iter().flatten().all(|&v| v <= MAX_VALUE));
    assert_eq!(digits.pixels.iter().flatten().copied().max(), Some(16));
    // the first image is a 0
    assert_eq!(digits.labels[0], 0);
    assert_eq!(digits.pixels[0][..8], [0, 0, 5, 13, 9, 1, 0, 0]);
}

#[test]
fn worked_example_split() {
    let digits = Digits::load();
    let split = digits.stratified_split(0.5, 0);
    // half of each class, rounded down, to training
    assert_eq!((split.train.len(), split.test.len()), (896, 901));
    assert_eq!(split.train.class_counts(), [89, 91, 88, 91, 90, 91, 90, 89, 87, 90]);
    assert_eq!(split.test.class_counts(), [89, 91, 89, 92, 91, 91, 91, 90, 87, 90]);
}

#[test]
fn the_split_is_a_seeded_partition() {
    let digits = Digits::load();
    let split = digits.stratified_split(0.5, 0);
    // every image lands in exactly one of the two sets (compared as multisets of (pixels, label))
    let key = |d: &Digits| {
        let mut v: Vec<_> = d.pixels.iter().zip(&d.labels).map(|(p, &l)| (p.to_vec(), l)).collect();
        v.sort();
        v
    };
    let mut both = key(&split.train);
    both.extend(key(&split.test));
    both.sort();
    assert_eq!(both, key(&digits));
    // the same seed gives the same split, another seed another one
    assert_eq!(split.train, digits.stratified_split(0.5, 0).train);
    assert_ne!(split.train, digits.stratified_split(0.5, 1).train);
    // other fractions
    assert_eq!(digits.stratified_split(0.8, 0).train.class_counts().iter().sum::<usize>(), 1_433);
    assert_eq!(digits.stratified_split(1.0, 0).test.len(), 0);
}

#[test]
fn images_are_scaled_to_unit_range_and_labels_one_hot() {
    let dev = support::Dev::default();
    let digits = Digits::load();
    let images = digits.images(&dev, &[0, 1]);
    assert_eq!(images.shape().concrete(), [2, 1, 8, 8]);
    let v = images.as_vec();
    assert_eq!(v[2], 5.0 / 16.0);
    assert!(v.iter().all(|x| (0.0..=1.0).contains(x)));
    let targets = digits.one_hot(&dev, &[0, 1]).as_vec();
    assert_eq!(targets.len(), 2 * CLASSES);
    assert_eq!((targets[0], targets[CLASSES + 1], targets.iter().sum::<f32>()), (1.0, 1.0, 2.0));
}

#[test]
fn shifts_move_pixels_and_fill_zeros() {
    let image: [f32; PIXELS] = std::array::from_fn(|i| i as f32 + 1.0);
    let right = shifted(&image, 0, 1);
    assert_eq!(right[..8], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let up = shifted(&image, -1, 0);
    assert_eq!(up[..8], image[8..16]);
    assert!(up[56..].iter().all(|&v| v == 0.0));
    assert_eq!(shifted(&image, 0, 0), image);
}

#[test]
fn worked_example_knn_baseline() {
    let split = Digits::load().stratified_split(0.5, 0);
    let (correct, total) = knn::correct(&split.train, &split.test);
    assert_eq!((correct, total), (888, 901));
    // 98.56 %
    assert_eq!(format!("{:.2}", 100.0 * correct as f64 / total as f64), "98.56");
    // a training image is its own nearest neighbour
    assert_eq!(knn::nearest_label(&split.train, &split.train.pixels[3]), split.train.labels[3]);
}
