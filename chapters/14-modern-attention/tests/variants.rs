//! The three variants' committed training runs (`measurements/variants.json`): a shortened rerun
//! of each, and the page's numbers recomputed from the file.

use ch10_language_models::TrainConfig;
use ch14_modern_attention::variants::report::committed;
use ch14_modern_attention::variants::train::train;
use ch14_modern_attention::variants::Variant;

/// The first 3 steps of each run again, from the same seed: the same losses (bit for bit on the
/// CPU; on a GPU, `support::ON_GPU`, within a relative 1e-5) and the same first reading.
#[test]
fn a_rerun_starts_as_the_committed_runs() {
    let runs = committed();
    assert_eq!(runs.config, TrainConfig::char_model());
    for variant in [Variant::Plain, Variant::QkNorm, Variant::Gate] {
        let dev = support::seeded_device(runs.config.seed);
        let (_, run) = train(&dev, variant, &runs.config, 3, 40, |_, _| {});
        let committed = runs.run(variant);
        support::assert_same_run(&run.losses, &committed.losses[..3], 1e-5);
        let (new, old) = (&run.readings[0], &committed.readings[0]);
        support::assert_same_run(&[new.max_score], &[old.max_score], 1e-5);
        support::assert_same_run(&new.first_weight, &old.first_weight, 1e-5);
    }
}

/// The page's numbers, recomputed from the committed runs.
#[test]
fn the_pages_variant_numbers() {
    use ch14_modern_attention::variants::train::{even_spread, SKIP_QUERIES};
    let runs = committed();
    let r2 = |x: f32| (x * 100.0).round() / 100.0;
    let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
    let largest = |v| runs.run(v).readings.iter().map(|x| x.max_score).fold(f32::MIN, f32::max);
    let (plain, qk, gate) =
        (runs.run(Variant::Plain), runs.run(Variant::QkNorm), runs.run(Variant::Gate));
    let end = |r: &ch14_modern_attention::variants::train::Run| r.readings.last().unwrap().clone();
    // QK-norm: the largest score
    assert_eq!((r2(plain.readings[0].max_score), r2(largest(Variant::Plain))), (2.05, 20.70));
    let top = plain.readings.iter().find(|x| x.max_score == largest(Variant::Plain)).unwrap();
    assert_eq!(top.step, 240);
    assert_eq!((r2(end(plain).max_score), r2(end(qk).max_score)), (20.55, 9.98));
    assert_eq!(r2(largest(Variant::QkNorm)), 9.98);
    assert!(end(qk).max_score < end(plain).max_score / 2.0, "halves");
    assert_eq!((r3(qk.held_out), r3(plain.held_out), r3(gate.held_out)), (2.039, 2.074, 1.974));
    // the gate: no sink
    assert_eq!(r3(even_spread(runs.config.context, SKIP_QUERIES) as f64), 0.018);
    let w = |r: &ch14_modern_attention::variants::train::Run| {
        end(r).first_weight.iter().map(|&x| r3(x as f64)).collect::<Vec<_>>()
    };
    assert_eq!((w(plain), w(gate)), (vec![0.007, 0.003], vec![0.004, 0.002]));
    assert_eq!(r2(largest(Variant::Gate)), 30.81);
    let gaps = (r3(plain.held_out - qk.held_out), r3(plain.held_out - gate.held_out));
    assert_eq!(gaps, (0.035, 0.100));
    // at the start every run gives position 0 between 0.015 and 0.019 in each layer
    let starts: Vec<f64> = runs
        .runs
        .iter()
        .flat_map(|r| r.readings[0].first_weight.iter().map(|&x| x as f64))
        .collect();
    let (lo, hi) = starts.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert_eq!((r3(lo), r3(hi)), (0.015, 0.019), "{starts:?}");
}
