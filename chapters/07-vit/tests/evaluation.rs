//! What the committed model gets wrong, and the runs of the `seeds` example: other seeds and
//! smaller training sets, beside 1-nearest-neighbour (`weights/runs.json`).

use ch07_vit::digits::Digits;
use ch07_vit::evaluate::{confusion_matrix, format_confusion, misclassified, predict};
use ch07_vit::figures::{attention_examples, try_cls_attention_maps, ATTENTION_DIGITS};
use ch07_vit::knn;
use ch07_vit::report::Run;
use ch07_vit::trained;
use ch07_vit::TrainConfig;
use support::Dev;

#[test]
fn worked_example_mistakes() {
    let report = trained::load_report();
    let split = Digits::load().stratified_split(report.config.train_fraction, report.config.seed);
    let dev = Dev::default();
    let predicted = predict(&trained::load_model(&dev), &dev, &split.test);
    let matrix = confusion_matrix(&predicted, &split.test.labels);
    let diagonal: usize = (0..10).map(|d| matrix[d][d]).sum();
    assert_eq!(diagonal, 882);
    // the 19 mistakes: most on 8s and 9s (5 each); a 9 read as a 4 is the commonest (3 times)
    let wrong = misclassified(&predicted, &split.test.labels);
    assert_eq!(wrong.len(), 19);
    let errors: Vec<usize> =
        (0..10).map(|d| matrix[d].iter().sum::<usize>() - matrix[d][d]).collect();
    assert_eq!(errors, [0, 2, 0, 1, 1, 1, 0, 4, 5, 5]);
    let mut off_diagonal: Vec<(usize, usize, usize)> = (0..100)
        .map(|i| (matrix[i / 10][i % 10], i / 10, i % 10))
        .filter(|&(_, t, p)| t != p)
        .collect();
    off_diagonal.sort();
    assert_eq!(off_diagonal.last(), Some(&(3, 9, 4)));
    assert_eq!(off_diagonal[off_diagonal.len() - 2].0, 2, "no other confusion happens 3 times");
    // 1-NN gets 13 wrong, and only 5 of them are among the ViT's 19
    let knn_wrong = misclassified(&knn::predict(&split.train, &split.test), &split.test.labels);
    assert_eq!(knn_wrong.len(), 13);
    assert_eq!(wrong.iter().filter(|i| knn_wrong.contains(i)).count(), 5);
    // the printed matrix: a header and one row per digit
    let text = format_confusion(&matrix);
    assert_eq!(text.lines().count(), 11);
    assert!(text.lines().nth(9).unwrap().ends_with("1   1   0   1   0   0   1   0  82   1"));
}

fn runs_of(runs: &[Run], share: f64) -> Vec<&Run> {
    runs.iter().filter(|r| r.train_fraction == share).collect()
}

/// Mean accuracy in percent.
fn mean_of(runs: &[&Run], accuracy: fn(&Run) -> f64) -> f64 {
    100.0 * runs.iter().map(|r| accuracy(r)).sum::<f64>() / runs.len() as f64
}

/// Mean accuracy in percent, rounded to two decimals, as the book prints it.
fn mean(runs: &[&Run], accuracy: fn(&Run) -> f64) -> String {
    format!("{:.2}", mean_of(runs, accuracy))
}

/// How many points 1-NN is ahead, as the book prints it.
fn lead(runs: &[&Run]) -> String {
    format!("{:.2}", mean_of(runs, Run::knn_accuracy) - mean_of(runs, Run::vit_accuracy))
}

#[test]
fn worked_example_seeds_and_data_size() {
    let runs = trained::load_runs();
    let digits = Digits::load();
    assert_eq!(runs.len(), 15, "5 seeds x 3 training shares");
    for run in &runs {
        // every split is what the random seed and the share give, and 1-NN's count is recomputed
        let split = digits.stratified_split(run.train_fraction, run.seed);
        assert_eq!((run.train_images, run.test_images), (split.train.len(), split.test.len()));
        assert_eq!(knn::correct(&split.train, &split.test).0, run.knn_correct, "{run:?}");
    }
    // seed 0 at the full share is the committed run
    let report = trained::load_report();
    let committed = runs.iter().find(|r| r.seed == 0 && r.train_fraction == 0.5).unwrap();
    assert_eq!(committed.vit_correct, report.test_correct);
    assert_eq!(
        report.config,
        TrainConfig { seed: 0, train_fraction: 0.5, ..TrainConfig::digits() }
    );

    // 896 training images, seeds 0 to 4: the ViT averages 97.87 %, 1-NN 98.45 %
    let half = runs_of(&runs, 0.5);
    assert_eq!(half.iter().map(|r| r.seed).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert_eq!((half[0].train_images, half[0].test_images), (896, 901));
    assert_eq!(mean(&half, Run::vit_accuracy), "97.87");
    assert_eq!(mean(&half, Run::knn_accuracy), "98.45");
    assert_eq!(lead(&half), "0.58");
    assert!(half.iter().all(|r| r.vit_accuracy() >= 0.97), "every seed reaches 97 %");

    // 100 epochs at every size: 6, 14 and 28 batches of 32 an epoch
    let steps = |r: &Run| TrainConfig::digits().steps_per_epoch(r.train_images) * 100;
    let by_size: Vec<usize> =
        [0.1, 0.25, 0.5].iter().map(|&f| steps(runs_of(&runs, f)[0])).collect();
    assert_eq!(by_size, vec![600, 1_400, 2_800]);

    // 445 training images
    let quarter = runs_of(&runs, 0.25);
    assert_eq!((quarter[0].train_images, quarter[0].test_images), (445, 1_352));
    assert_eq!(mean(&quarter, Run::vit_accuracy), "95.38");
    assert_eq!(mean(&quarter, Run::knn_accuracy), "97.47");
    assert_eq!(lead(&quarter), "2.09");

    // 176 training images
    let tenth = runs_of(&runs, 0.1);
    assert_eq!((tenth[0].train_images, tenth[0].test_images), (176, 1_621));
    assert_eq!(mean(&tenth, Run::vit_accuracy), "87.56");
    assert_eq!(mean(&tenth, Run::knn_accuracy), "94.40");
    assert_eq!(lead(&tenth), "6.84");
    // with 176 or 445 training images 1-NN is ahead on every seed; with 896 on three of five:
    // the ViT is ahead by one image on seed 2, and they tie on seed 3
    let smaller = runs.iter().filter(|r| r.train_fraction < 0.5);
    assert!(smaller.into_iter().all(|r| r.knn_correct > r.vit_correct));
    let margins: Vec<isize> =
        half.iter().map(|r| r.vit_correct as isize - r.knn_correct as isize).collect();
    assert_eq!(margins.iter().filter(|&&m| m < 0).count(), 3);
    assert_eq!((margins[2], margins[3]), (1, 0));
}

#[test]
fn worked_example_cls_attention() {
    let report = trained::load_report();
    let test =
        Digits::load().stratified_split(report.config.train_fraction, report.config.seed).test;
    let dev = Dev::default();
    let model = trained::load_model(&dev);
    // the figure's digits: the first test 0, 3, 4 and 7, all classified correctly
    let shown = attention_examples(&test);
    assert_eq!(shown, [3, 4, 1, 2]);
    let predicted = predict(&model, &dev, &test.subset(&shown));
    assert_eq!(predicted, ATTENTION_DIGITS);
    // over all 901 test images: how often each head of the last layer puts more than half of the
    // [CLS] token's attention on one patch
    let all: Vec<usize> = (0..test.len()).collect();
    let maps = model.cls_attention(test.images(&dev, &all)).as_vec(); // (901, 4, 16)
    let mut focused = [0; 4];
    for image in maps.chunks(4 * 16) {
        for (head, map) in image.chunks(16).enumerate() {
            if map.iter().any(|&w| w > 0.5) {
                focused[head] += 1;
            }
        }
    }
    assert_eq!(focused, [293, 532, 608, 727]);
}

/// The notebook's try-it cell picks test images by index: a pick the test set cannot give is an
/// error that says which indices exist, never a panic or a division by zero.
#[test]
fn picked_test_images_that_do_not_exist_are_named() {
    let report = trained::load_report();
    let test =
        Digits::load().stratified_split(report.config.train_fraction, report.config.seed).test;
    let dev = Dev::default();
    let model = trained::load_model(&dev);
    let pick = |indices: &[usize]| match try_cls_attention_maps(&model, &dev, &test, indices) {
        Ok(_) => "drawn".to_string(),
        Err(e) => e.to_string(),
    };
    assert_eq!(pick(&[]), "no test image picked: give at least one index, from 0 to 900");
    assert_eq!(
        pick(&[10, 901, 5]),
        "there is no test image 901: the test set has 901 images, numbered 0 to 900"
    );
    assert_eq!(pick(&[900, 0]), "drawn");
}

/// 1-nearest-neighbour has no image prior: shuffling the pixel positions of every image the same
/// way changes no distance, so it changes no answer.
#[test]
fn knn_is_blind_to_a_pixel_shuffle() {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let split = Digits::load().stratified_split(0.5, 0);
    let mut order: Vec<usize> = (0..64).collect();
    order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(7));
    assert_ne!(order, (0..64).collect::<Vec<_>>());
    let shuffle = |d: &Digits| Digits {
        pixels: d.pixels.iter().map(|p| std::array::from_fn(|i| p[order[i]])).collect(),
        labels: d.labels.clone(),
    };
    let before = knn::predict(&split.train, &split.test);
    let after = knn::predict(&shuffle(&split.train), &shuffle(&split.test));
    assert_eq!(before, after);
    assert_eq!(knn::correct(&shuffle(&split.train), &shuffle(&split.test)), (888, 901));
}
