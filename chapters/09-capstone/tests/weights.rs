//! The committed weights: they load, reverse held-out sequences as the report says, give
//! bit-identical outputs after a save and reload, and bad files give errors that name the problem.

use ch09_capstone::data::{test_set, validation_set};
use ch09_capstone::decode::{exact_accuracy, greedy};
use ch09_capstone::evaluate::{by_length, seen_and_unseen};
use ch09_capstone::train::short_draws;
use ch09_capstone::trained::{load_model, load_report, try_load_from, WEIGHTS};
use ch09_capstone::LoadError;
use ch09_capstone::TrainConfig;
use dfdx::prelude::*;
use support::Dev;

// the test set's sequences of 4-10 and of 1-3 digits, and the short ones training drew
const UNSEEN: usize = 671;
const SEEN: usize = 129;
const DRAWN: usize = 1_107;
const SEEN_DRAWN: usize = 129;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ch09-weights");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every accuracy the page gives, recomputed from the committed weights: the test set by length
/// (4-10 digits never in training, 1-3 digits that training also draws), the longer lengths, and
/// the validation set; the committed report recorded the same.
#[test]
fn worked_example_committed_model_reverses() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let report = load_report();
    let config = &report.config;
    assert_eq!((validation_set(config).len(), test_set(config).len()), (200, 800));
    let scores = by_length(&model, &dev, config);
    assert_eq!(scores, report.by_length, "the report recorded what the weights give");
    let ((seen_right, seen), (unseen_right, unseen)) = seen_and_unseen(&scores);
    assert_eq!((unseen_right, unseen), (UNSEEN, UNSEEN));
    assert_eq!((seen_right, seen), (SEEN, SEEN));
    let longer: Vec<(usize, usize, usize)> =
        scores[10..].iter().map(|s| (s.length, s.sequences, s.right)).collect();
    assert_eq!(longer, vec![(11, 102, 14), (12, 108, 0), (13, 102, 0), (14, 88, 0)]);
    let validation = exact_accuracy(&model, &dev, &validation_set(config));
    assert_eq!((validation, report.validation_accuracy), (1.0, 1.0));
    assert_eq!(greedy(&model, &dev, &[vec![3, 1, 4, 1, 5]]), vec![vec![5, 1, 4, 1, 3]]);
}

/// The short sequences the page counts: how many of the 1,110 sequences of 1-3 digits the
/// seeded training stream drew, and how many of the test set's short ones are among them.
#[test]
fn worked_example_short_sequences_drawn() {
    let d = short_draws(&TrainConfig::reversal());
    assert_eq!((d.distinct, d.possible), (DRAWN, 1_110));
    assert_eq!((d.in_test_drawn, d.in_test), (SEEN_DRAWN, SEEN));
}

#[test]
fn saved_weights_reload_bit_identical() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let path = temp("copy.safetensors");
    model.save_safetensors(&path).unwrap();
    let again = try_load_from(&dev, &path).unwrap();
    let src = dev.tensor_from_vec(vec![4usize, 5, 6, 7], (1, 4));
    let (a, _) = model.try_encode(src.clone(), None).unwrap();
    let (b, _) = again.try_encode(src, None).unwrap();
    assert_eq!(a.as_vec(), b.as_vec());
}

#[test]
fn bad_weight_files_are_named() {
    let dev = Dev::default();
    let missing = try_load_from(&dev, temp("nothing-here.safetensors")).unwrap_err();
    assert!(matches!(missing, LoadError::Missing { .. }));
    assert!(missing.to_string().contains("no such file"), "{missing}");

    let bytes = std::fs::read(WEIGHTS).unwrap();
    let truncated = temp("truncated.safetensors");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = try_load_from(&dev, &truncated).unwrap_err();
    assert!(matches!(e, LoadError::Mismatch { .. }), "{e}");
    assert!(e.to_string().contains("does not hold this model's weights"), "{e}");

    // a model of other sizes: other shapes under the same names
    let other =
        ch05_blocks::Seq2Seq::<13, 13, 32, 4, 8, 64, 2, ch05_blocks::PostNorm, f32, Dev>::new(&dev);
    let path = temp("other-shapes.safetensors");
    other.save_safetensors(&path).unwrap();
    let e = try_load_from(&dev, &path).unwrap_err();
    assert!(matches!(e, LoadError::Mismatch { .. }), "{e}");
}
