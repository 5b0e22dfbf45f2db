//! How much the result depends on the random seed and on the amount of training data: the `train`
//! example's configuration on five seeds (each with its own split, initial weights, batches and
//! shifts) and three training shares (10 %, 25 % and 50 % of each class; the rest is the test set),
//! beside 1-nearest-neighbour on the same split. Prints a table and saves it as
//! `weights/runs.json`: `cargo run --release -p ch07-vit --example seeds` (about 5 minutes on two
//! cores).
use ch07_vit::digits::Digits;
use ch07_vit::report::Run;
use ch07_vit::trained::RUNS;
use ch07_vit::{knn, train, DigitsVit, TrainConfig};
use dfdx::tensor::Cache;
use support::Dev;

const SEEDS: [u64; 5] = [0, 1, 2, 3, 4];
const FRACTIONS: [f64; 3] = [0.1, 0.25, 0.5];

fn main() {
    println!("share  seed  train  test  ViT accuracy  1-NN accuracy  training time");
    let mut runs = Vec::new();
    for train_fraction in FRACTIONS {
        let (mut vit_sum, mut knn_sum) = (0.0, 0.0);
        for seed in SEEDS {
            let config = TrainConfig { seed, train_fraction, ..TrainConfig::digits() };
            let dev = support::seeded_device(seed);
            dev.enable_cache();
            let split = Digits::load().stratified_split(train_fraction, seed);
            let (knn_correct, n) = knn::correct(&split.train, &split.test);
            let trained =
                train::<DigitsVit<Dev>, Dev>(&dev, &split, &config, config.epochs, |_| {});
            let predictions = trained.test_predictions.iter().zip(&split.test.labels);
            let vit_correct = predictions.filter(|(p, l)| p == l).count();
            let run = Run {
                seed,
                train_fraction,
                train_images: split.train.len(),
                test_images: n,
                vit_correct,
                knn_correct,
                seconds: trained.seconds,
            };
            println!(
                "{:>4.0}%  {seed:>4}  {:>5}  {:>4}  {:>11.2}%  {:>12.2}%  {:>11.1} s",
                100.0 * train_fraction,
                run.train_images,
                n,
                100.0 * run.vit_accuracy(),
                100.0 * run.knn_accuracy(),
                run.seconds
            );
            (vit_sum, knn_sum) = (vit_sum + run.vit_accuracy(), knn_sum + run.knn_accuracy());
            runs.push(run);
        }
        let count = SEEDS.len() as f64;
        println!(
            "{:>4.0}%  mean{:>26.2}%  {:>12.2}%",
            100.0 * train_fraction,
            100.0 * vit_sum / count,
            100.0 * knn_sum / count
        );
    }
    // the whole file or none of it: a run stopped while saving leaves the committed runs
    support::saved::save_json(RUNS, &runs).unwrap_or_else(|e| panic!("{e}"));
    println!("saved weights/runs.json");
}
