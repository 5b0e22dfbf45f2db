//! The numbers the page states about the committed training run, from its report.

use ch09_capstone::trained::load_report;
use ch09_capstone::TrainConfig;

#[test]
fn worked_example_training_run() {
    let r = load_report();
    assert_eq!(r.config, TrainConfig::reversal());
    assert_eq!((r.config.steps, r.config.batch_size, r.parameters), (1000, 64, 169_933));
    assert_eq!((10.0 * r.seconds).round() / 10.0, 41.1);
    assert_eq!(r.held_out_accuracy, 1.0);
    let at =
        |step: usize| r.history.iter().find(|p| p.step == step).expect("a point every 100 steps");
    // the curve: near guessing at step 100, 91.5 % of sequences at 300, all 200 from step 600
    assert_eq!(((100.0 * at(100).loss).round() / 100.0, at(100).exact_accuracy), (2.29, 0.05));
    assert_eq!(at(300).exact_accuracy, 0.915);
    assert_eq!(at(600).exact_accuracy, 1.0);
    assert_eq!(at(800).exact_accuracy, 0.995);
    // by length: every held-out sequence of 1-10 digits, 14 of 102 at 11, none longer
    assert!(r.by_length[..10].iter().all(|&(_, all, right)| all == right));
    assert_eq!(
        r.by_length[10..].to_vec(),
        vec![(11, 102, 14), (12, 108, 0), (13, 102, 0), (14, 88, 0)]
    );
}
