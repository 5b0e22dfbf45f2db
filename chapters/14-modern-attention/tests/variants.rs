//! The three variants' committed training runs (`measurements/variants.json`): a shortened rerun
//! of each, and the page's numbers recomputed from the file.

use ch10_language_models::TrainConfig;
use ch14_modern_attention::variants::report::committed;
use ch14_modern_attention::variants::train::train;
use ch14_modern_attention::variants::Variant;

/// The first 3 steps of each run again, from seed 0 as committed: the same losses (bit for bit on the
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
    use ch14_modern_attention::variants::report::{end_weight, largest_score};
    use ch14_modern_attention::variants::train::{even_spread, Run, SKIP_QUERIES};
    let runs = committed();
    assert_eq!(runs.seeds, [0, 1, 2]);
    assert_eq!(runs.runs.len(), 9);
    let r2 = |x: f64| (x * 100.0).round() / 100.0;
    let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
    let seeds = |v, pick: &dyn Fn(&Run) -> f64, round: &dyn Fn(f64) -> f64| {
        let o = runs.over_seeds(v, pick);
        (round(o.first), round(o.min), round(o.max))
    };
    let end_score = |r: &Run| r.readings.last().unwrap().max_score as f64;
    let on_the_way = |r: &Run| largest_score(r) as f64;
    let held_out = |r: &Run| r.held_out;
    // QK-norm: the largest score, and under half of the plain run's in every seed
    assert_eq!(r2(runs.run(Variant::Plain).readings[0].max_score as f64), 2.05);
    assert_eq!(seeds(Variant::Plain, &end_score, &r2), (20.55, 20.55, 33.86));
    assert_eq!(seeds(Variant::Plain, &on_the_way, &r2).2, 38.60);
    assert_eq!(seeds(Variant::QkNorm, &end_score, &r2), (9.98, 9.52, 9.98));
    for &seed in &runs.seeds {
        let (plain, qk) =
            (runs.run_with(Variant::Plain, seed), runs.run_with(Variant::QkNorm, seed));
        assert!(end_score(qk) < end_score(plain) / 2.0, "seed {seed}");
    }
    assert_eq!(seeds(Variant::QkNorm, &held_out, &r3), (2.039, 2.023, 2.039));
    assert_eq!(seeds(Variant::Plain, &held_out, &r3), (2.074, 2.017, 2.074));
    // the gate: no sink
    assert_eq!(r3(even_spread(runs.config.context, SKIP_QUERIES) as f64), 0.018);
    let starts: Vec<f64> = runs
        .runs
        .iter()
        .flat_map(|r| r.readings[0].first_weight.iter().map(|&x| x as f64))
        .collect();
    let (lo, hi) = starts.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert_eq!((r3(lo), r3(hi)), (0.015, 0.020), "{starts:?}");
    let ends = |v| [0, 1].map(|layer| r3(end_weight(runs.run(v), layer)));
    assert_eq!((ends(Variant::Plain), ends(Variant::Gate)), ([0.007, 0.003], [0.004, 0.002]));
    assert!(runs.runs.iter().all(|r| r
        .readings
        .last()
        .unwrap()
        .first_weight
        .iter()
        .all(|&w| w < 0.010)));
    assert_eq!(r2(largest_score(runs.run(Variant::Gate)) as f64), 30.81);
    let largest_in_seed_0 = [Variant::Plain, Variant::QkNorm].map(|v| largest_score(runs.run(v)));
    assert!(largest_in_seed_0.iter().all(|&x| x < largest_score(runs.run(Variant::Gate))));
    assert_eq!(seeds(Variant::Gate, &held_out, &r3), (1.974, 1.974, 2.034));
}
