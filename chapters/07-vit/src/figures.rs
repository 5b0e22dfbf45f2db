//! The chapter's figures, drawn from the committed weights and reports (nothing is trained here):
//! the learning curve, the confusion matrix, the digits the ViT gets wrong, the `[CLS]` token's
//! attention over the patches, and accuracy against the amount of training data.
//! `cargo run -p ch07-vit --example ch07-figures` writes them into the book.

use dfdx::prelude::*;
use support::{BarChart, Heatmap, LineChart};

use crate::digits::{Digits, Split, CLASSES, PIXELS, SIDE};
use crate::error::InvalidPick;
use crate::evaluate::predict;
use crate::evaluate::{confusion_matrix, misclassified};
use crate::report::{Report, Run};
use crate::trained;
use crate::DigitsVit;

/// The first test image of each of these digits is shown with its attention maps.
pub const ATTENTION_DIGITS: [u8; 4] = [0, 3, 4, 7];

/// How many misclassified digits the figure shows (the first ones of the test set).
pub const MISCLASSIFIED_SHOWN: usize = 10;

/// The split the committed model was trained and tested on.
pub fn committed_split(report: &Report) -> Split {
    Digits::load().stratified_split(report.config.train_fraction, report.config.seed)
}

/// Test accuracy (every 5 epochs) and training accuracy (every epoch, on shifted images) of the
/// committed run, with 1-nearest-neighbour's test accuracy for comparison.
pub fn learning_curve(report: &Report) -> LineChart {
    let test = report.history.iter().filter_map(|e| Some((e.epoch as f32, e.test_accuracy?)));
    let train = report.history.iter().map(|e| (e.epoch as f32, e.train_accuracy as f32));
    let epochs = report.history.len() as f32;
    let knn = report.knn_accuracy as f32;
    LineChart::new("DigitsVit on 896 training images", "epoch", "accuracy")
        .line("test", test.map(|(x, y)| (x, y as f32)).collect())
        .line("training (shifted images)", train.collect())
        .line("1-nearest-neighbour, test", vec![(1.0, knn), (epochs, knn)])
}

/// The mean training loss of every epoch of the committed run.
pub fn loss_curve(report: &Report) -> LineChart {
    let loss = report.history.iter().map(|e| (e.epoch as f32, e.train_loss)).collect();
    LineChart::new("training loss (cross-entropy, label smoothing 0.1)", "epoch", "loss")
        .line("mean loss of the epoch", loss)
}

/// The confusion matrix as a heatmap: rows are the true digits, columns the predictions.
pub fn confusion(predicted: &[u8], labels: &[u8]) -> Heatmap {
    let matrix = confusion_matrix(predicted, labels);
    let values = matrix.iter().flatten().map(|&n| n as f32).collect();
    let digits: Vec<String> = (0..CLASSES).map(|d| d.to_string()).collect();
    Heatmap::new("confusion matrix of the ViT on the 901 test digits", values, CLASSES, CLASSES)
        .labels(&digits, &digits)
        .decimals(Some(0))
        .axes("predicted digit", "true digit")
}

/// Panels of `SIDE x SIDE` values in `[0, 1]` laid out in a grid, a grey line between them, as
/// one heatmap; `col_names` label the panel columns, `row_names` the panel rows.
fn panel_grid(
    title: &str,
    panels: &[Vec<[f32; PIXELS]>],
    row_names: &[String],
    col_names: &[String],
) -> Heatmap {
    let (panel_rows, panel_cols) = (panels.len(), panels[0].len());
    let (rows, cols) = (panel_rows * (SIDE + 1) - 1, panel_cols * (SIDE + 1) - 1);
    let mut values = vec![f32::NAN; rows * cols];
    for (pr, row) in panels.iter().enumerate() {
        for (pc, panel) in row.iter().enumerate() {
            for (i, &v) in panel.iter().enumerate() {
                let (r, c) = (pr * (SIDE + 1) + i / SIDE, pc * (SIDE + 1) + i % SIDE);
                values[r * cols + c] = v;
            }
        }
    }
    let label_at = |n: usize, names: &[String]| -> Vec<String> {
        (0..n)
            .map(|i| match (i % (SIDE + 1) == SIDE / 2, names.get(i / (SIDE + 1))) {
                (true, Some(name)) => name.clone(),
                _ => String::new(),
            })
            .collect()
    };
    Heatmap::new(title, values, rows, cols)
        .labels(&label_at(rows, row_names), &label_at(cols, col_names))
        .decimals(None)
        .range(0.0, 1.0)
        .axes("", "")
}

/// The first [`MISCLASSIFIED_SHOWN`] test digits that the ViT gets wrong, labelled
/// "true → predicted".
pub fn misclassified_digits(test: &Digits, predicted: &[u8]) -> Heatmap {
    let wrong = misclassified(predicted, &test.labels);
    let shown = &wrong[..MISCLASSIFIED_SHOWN.min(wrong.len())];
    let images = vec![shown.iter().map(|&i| test.scaled(i)).collect()];
    let names: Vec<String> =
        shown.iter().map(|&i| format!("{} → {}", test.labels[i], predicted[i])).collect();
    let title = format!("{} of the {} test digits the ViT gets wrong", shown.len(), wrong.len());
    panel_grid(&title, &images, &[String::new()], &names).axes("true digit → ViT's answer", "")
}

/// A map of one weight per patch, blown up to the image's `SIDE x SIDE` pixels (each patch's
/// weight on every pixel it covers) and divided by its largest weight.
fn patch_map(weights: &[f32]) -> [f32; PIXELS] {
    let per_side = (weights.len() as f64).sqrt() as usize;
    assert_eq!(per_side * per_side, weights.len(), "one weight per patch of a square grid");
    let p = SIDE / per_side;
    let max = weights.iter().copied().fold(f32::MIN_POSITIVE, f32::max);
    std::array::from_fn(|i| weights[(i / SIDE / p) * per_side + (i % SIDE) / p] / max)
}

/// The first test image of each digit in [`ATTENTION_DIGITS`].
pub fn attention_examples(test: &Digits) -> Vec<usize> {
    let first = |d: u8| test.labels.iter().position(|&l| l == d).expect("every digit is tested");
    ATTENTION_DIGITS.map(first).to_vec()
}

/// For a few test digits: the image, and for each head of the last layer the `[CLS]` token's
/// attention over the 4×4 patches (each map divided by its largest weight).
///
/// # Panics
/// With [`try_cls_attention_maps`]'s error: no index, or one the test set does not have.
pub fn cls_attention_maps<Dev: Device<f32>>(
    model: &DigitsVit<Dev>,
    dev: &Dev,
    test: &Digits,
    indices: &[usize],
) -> Heatmap {
    try_cls_attention_maps(model, dev, test, indices).unwrap_or_else(|e| panic!("{e}"))
}

/// [`cls_attention_maps`], or why the test set cannot give the images `indices` picks.
pub fn try_cls_attention_maps<Dev: Device<f32>>(
    model: &DigitsVit<Dev>,
    dev: &Dev,
    test: &Digits,
    indices: &[usize],
) -> Result<Heatmap, InvalidPick> {
    let len = test.len();
    if indices.is_empty() {
        return Err(InvalidPick::Empty { len });
    }
    if let Some(&index) = indices.iter().find(|&&i| i >= len) {
        return Err(InvalidPick::OutOfRange { index, len });
    }
    let attention = model.cls_attention(test.images(dev, indices)).as_vec(); // (batch, 4, 16)
    let heads = attention.len() / (indices.len() * 16);
    let panels: Vec<Vec<[f32; PIXELS]>> = indices
        .iter()
        .zip(attention.chunks(heads * 16))
        .map(|(&i, maps)| {
            let mut row = vec![test.scaled(i)];
            row.extend(maps.chunks(16).map(patch_map));
            row
        })
        .collect();
    let predicted = predict(model, dev, &test.subset(indices));
    let rows: Vec<String> = indices
        .iter()
        .zip(&predicted)
        .map(|(&i, p)| format!("{}, ViT: {p}", test.labels[i]))
        .collect();
    let mut cols = vec!["image".to_string()];
    cols.extend((1..=heads).map(|h| format!("head {h}")));
    Ok(panel_grid("[CLS] attention on the patches, last layer", &panels, &rows, &cols))
}

/// Mean test accuracy over the five random seeds of the `seeds` example for each training share, the ViT
/// beside 1-nearest-neighbour.
pub fn data_size(runs: &[Run]) -> BarChart {
    let mut shares: Vec<f64> = runs.iter().map(|r| r.train_fraction).collect();
    shares.dedup();
    let mean = |share: f64, accuracy: fn(&Run) -> f64| {
        let of_share: Vec<f64> =
            runs.iter().filter(|r| r.train_fraction == share).map(accuracy).collect();
        (100.0 * of_share.iter().sum::<f64>() / of_share.len() as f64) as f32
    };
    let names: Vec<String> = shares
        .iter()
        .map(|&s| {
            let n = runs.iter().find(|r| r.train_fraction == s).map_or(0, |r| r.train_images);
            format!("{n} training images")
        })
        .collect();
    BarChart::new("test accuracy, mean of 5 seeds", &names)
        .series("ViT", shares.iter().map(|&s| mean(s, Run::vit_accuracy)).collect())
        .series("1-nearest-neighbour", shares.iter().map(|&s| mean(s, Run::knn_accuracy)).collect())
        .y_desc("accuracy (%)")
        .y_range(80.0, 100.0)
}

/// Every figure of the chapter with its file name.
pub fn all<Dev: Device<f32>>(dev: &Dev) -> Vec<(&'static str, support::Svg)> {
    let report = trained::load_report();
    let test = committed_split(&report).test;
    let model = trained::load_model(dev);
    let predicted = predict(&model, dev, &test);
    let examples = attention_examples(&test);
    vec![
        ("ch07-learning-curve.svg", learning_curve(&report).to_svg()),
        ("ch07-loss.svg", loss_curve(&report).to_svg()),
        ("ch07-confusion.svg", confusion(&predicted, &test.labels).to_svg()),
        ("ch07-misclassified.svg", misclassified_digits(&test, &predicted).to_svg()),
        ("ch07-cls-attention.svg", cls_attention_maps(&model, dev, &test, &examples).to_svg()),
        ("ch07-data-size.svg", data_size(&trained::load_runs()).to_svg()),
    ]
}
