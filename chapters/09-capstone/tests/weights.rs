//! The committed weights: they load, reverse held-out sequences as the report says, give
//! bit-identical outputs after a save and reload, and bad files give errors that name the problem.

use ch09_capstone::decode::{exact_accuracy, greedy};
use ch09_capstone::train::held_out_set;
use ch09_capstone::trained::{load_from, load_model, load_report, LoadError, WEIGHTS};
use dfdx::prelude::*;
use support::Dev;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ch09-weights");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn worked_example_committed_model_reverses() {
    let dev = Dev::default();
    let model = load_model(&dev).expect("the committed weights load");
    let report = load_report();
    let test = held_out_set(&report.config);
    assert_eq!(test.len(), 1000);
    assert_eq!(exact_accuracy(&model, &dev, &test), report.held_out_accuracy);
    assert!(report.held_out_accuracy >= 0.99, "{}", report.held_out_accuracy);
    assert_eq!(greedy(&model, &dev, &[vec![3, 1, 4, 1, 5]]), vec![vec![5, 1, 4, 1, 3]]);
}

#[test]
fn saved_weights_reload_bit_identical() {
    let dev = Dev::default();
    let model = load_model(&dev).unwrap();
    let path = temp("copy.safetensors");
    model.save_safetensors(&path).unwrap();
    let again = load_from(&dev, &path).unwrap();
    let src = dev.tensor_from_vec(vec![4usize, 5, 6, 7], (1, 4));
    let (a, _) = model.try_encode(src.clone(), None).unwrap();
    let (b, _) = again.try_encode(src, None).unwrap();
    assert_eq!(a.as_vec(), b.as_vec());
}

#[test]
fn bad_weight_files_are_named() {
    let dev = Dev::default();
    let missing = load_from(&dev, temp("nothing-here.safetensors")).unwrap_err();
    assert!(matches!(missing, LoadError::Missing(_)));
    assert!(missing.to_string().contains("no such file"), "{missing}");

    let bytes = std::fs::read(WEIGHTS).unwrap();
    let truncated = temp("truncated.safetensors");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = load_from(&dev, &truncated).unwrap_err();
    assert!(matches!(e, LoadError::Mismatch { .. }), "{e}");
    assert!(e.to_string().contains("does not hold this model's weights"), "{e}");

    // a model of other sizes: other shapes under the same names
    let other =
        ch05_blocks::Seq2Seq::<13, 13, 32, 4, 8, 64, 2, ch05_blocks::PostNorm, f32, Dev>::new(&dev);
    let path = temp("other-shapes.safetensors");
    other.save_safetensors(&path).unwrap();
    let e = load_from(&dev, &path).unwrap_err();
    assert!(matches!(e, LoadError::Mismatch { .. }), "{e}");
}
