//! Trains the digits ViT, prints its test accuracy beside the 1-nearest-neighbour baseline and the
//! wall time, and saves the weights and the learning curve:
//! `cargo run --release -p ch07-vit --example train`.
use std::time::Instant;

use ch07_vit::digits::Digits;
use ch07_vit::evaluate::accuracy;
use ch07_vit::report::{Report, Results};
use ch07_vit::trained::RUN;
use ch07_vit::{knn, train, DigitsVit, TrainConfig};
use dfdx::nn::{NumParams, SaveToSafetensors};
use dfdx::tensor::Cache;
use indicatif::{ProgressBar, ProgressStyle};
use support::Dev;

fn main() {
    let config = TrainConfig::digits();
    let dev = support::seeded_device(config.seed);
    // reuse freed tensor buffers instead of returning them to the system: a training step
    // allocates the same sizes again and again
    dev.enable_cache();
    let split = Digits::load().stratified_split(config.train_fraction, config.seed);
    println!(
        "{} training and {} test images, {} epochs of batches of {}",
        split.train.len(),
        split.test.len(),
        config.epochs,
        config.batch_size
    );

    let knn_start = Instant::now();
    let (knn_correct, _) = knn::correct(&split.train, &split.test);
    let knn_seconds = knn_start.elapsed().as_secs_f64();

    let total = (config.steps_per_epoch(split.train.len()) * config.epochs) as u64;
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{bar:20} {pos:>4}/{len} [{elapsed}] {msg}")
            .expect("a valid template"),
    );
    let trained = train::<DigitsVit<Dev>, _>(&dev, &split, &config, config.epochs, |p| {
        bar.set_position(p.step as u64);
        bar.set_message(format!(
            "epoch {}/{} loss {:.3} train acc {:.1}%",
            p.epoch,
            config.epochs,
            p.loss,
            100.0 * p.train_accuracy
        ));
    });
    bar.finish();

    let test_accuracy = accuracy(&trained.test_predictions, &split.test.labels);
    let hits = trained.test_predictions.iter().zip(&split.test.labels).filter(|(p, l)| p == l);
    let (test_correct, n) = (hits.count(), split.test.len());
    let knn_accuracy = knn_correct as f64 / n as f64;
    println!("ViT test accuracy: {:.2}% ({test_correct}/{n})", 100.0 * test_accuracy);
    println!(
        "1-NN test accuracy: {:.2}% ({knn_correct}/{n}, {knn_seconds:.2} s)",
        100.0 * knn_accuracy
    );
    let machine = support::machine::describe();
    println!("training time: {:.1} s on {machine}", trained.seconds);

    let report = Report {
        config,
        parameters: trained.model.num_trainable_params(),
        machine,
        results: Results {
            train_images: split.train.len(),
            test_images: n,
            test_correct,
            test_accuracy,
            knn_correct,
            knn_accuracy,
            seconds: trained.seconds,
            history: trained.history,
        },
    };
    // both files whole or neither: a run stopped while saving leaves the committed pair as it was
    RUN.save(|path| trained.model.save_safetensors(path), &report);
    println!("saved weights/digits_vit.safetensors and weights/digits_vit.json");
}
