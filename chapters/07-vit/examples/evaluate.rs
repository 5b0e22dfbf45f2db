//! The committed model (`weights/digits_vit.safetensors`, trained by the `train` example) on its
//! test split, beside 1-nearest-neighbour: accuracy, the confusion matrix and the mistakes. Nothing
//! is trained: `cargo run -p ch07-vit --example evaluate`.
use ch07_vit::digits::Digits;
use ch07_vit::evaluate::{confusion_matrix, format_confusion, misclassified, predict};
use ch07_vit::{knn, trained, DigitsVit};
use dfdx::nn::NumParams;
use support::Dev;

fn main() {
    // ANCHOR: evaluate
    let dev = Dev::default();
    let report = trained::load_report(); // what the `train` example recorded
    let model: DigitsVit<Dev> = trained::load_model(&dev);
    let config = &report.config;
    let split = Digits::load().stratified_split(config.train_fraction, config.seed);
    let (train, test) = (&split.train, &split.test);

    let predicted = predict(&model, &dev, test);
    let knn_predicted = knn::predict(train, test);
    let correct = |p: &[u8]| p.iter().zip(&test.labels).filter(|(p, l)| p == l).count();
    let (vit, nn, n) = (correct(&predicted), correct(&knn_predicted), test.len());
    // ANCHOR_END: evaluate
    println!("DigitsVit: {} parameters", model.num_trainable_params());
    println!("split (seed {}): {} training and {} test images", config.seed, train.len(), n);
    println!("ViT test accuracy:  {:.2}% ({vit}/{n})", 100.0 * vit as f64 / n as f64);
    println!("1-NN test accuracy: {:.2}% ({nn}/{n})", 100.0 * nn as f64 / n as f64);
    println!(
        "recorded training: {} epochs of batches of {}, {:.1} s on {}",
        config.epochs, config.batch_size, report.seconds, report.machine
    );
    println!();
    println!("{}", format_confusion(&confusion_matrix(&predicted, &test.labels)));
    println!();
    let wrong = misclassified(&predicted, &test.labels);
    let knn_wrong = misclassified(&knn_predicted, &test.labels);
    let both = wrong.iter().filter(|i| knn_wrong.contains(i)).count();
    println!("the ViT gets {} wrong, 1-NN {}, both {both}", wrong.len(), knn_wrong.len());
    let pairs: Vec<String> =
        wrong.iter().map(|&i| format!("{}→{}", test.labels[i], predicted[i])).collect();
    println!("ViT mistakes (true→predicted):");
    for line in pairs.chunks(10) {
        println!("  {}", line.join(" "));
    }
}
