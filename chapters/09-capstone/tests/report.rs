//! The numbers the page states about the committed training run, from its report: the
//! configuration, the machine and time it recorded, and the learning curve on the validation set.

use ch09_capstone::trained::load_report;
use ch09_capstone::TrainConfig;

#[test]
fn worked_example_training_run() {
    let r = load_report();
    assert_eq!(r.config, TrainConfig::reversal());
    assert_eq!((r.config.steps, r.config.batch_size, r.parameters), (1000, 64, 169_933));
    assert_eq!((r.config.held_out, r.config.validation), (1000, 200));
    assert_eq!(r.machine, MACHINE, "the machine the run recorded");
    assert_eq!((10.0 * r.seconds).round() / 10.0, SECONDS);
    // the chapter's goal of a minute, missed on that machine by 30.2 s; it has no AVX-512
    assert_eq!((10.0 * (r.seconds - 60.0)).round() / 10.0, 30.2);
    assert!(!r.machine.contains("avx512f"));
    let at =
        |step: usize| r.history.iter().find(|p| p.step == step).expect("a point every 100 steps");
    // the validation curve: near guessing at step 100, 91.5 % at 300, all 200 from step 600 but
    // for one slip at 800
    assert_eq!(((100.0 * at(100).loss).round() / 100.0, at(100).exact_accuracy), (2.29, 0.05));
    assert_eq!(at(300).exact_accuracy, 0.915);
    let late: Vec<f64> = (600..=1000).step_by(100).map(|s| at(s).exact_accuracy).collect();
    assert_eq!(late, vec![1.0, 1.0, 0.995, 1.0, 1.0]);
}

/// What the committed run recorded of its machine and time.
const MACHINE: &str = "AMD EPYC, 2 cores (avx2, fma)";
const SECONDS: f64 = 90.2;
