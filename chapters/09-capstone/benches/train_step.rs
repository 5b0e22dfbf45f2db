//! One training step of the reversal model: a batch of 64 sequences of 1 to 10 digits, forward,
//! backward, Adam. `cargo bench -p ch09-capstone`.

use ch09_capstone::{TrainConfig, Trainer};
use criterion::{criterion_group, criterion_main, Criterion};
use support::Dev;

fn step(c: &mut Criterion) {
    let dev = Dev::seed_from_u64(0);
    let mut trainer = Trainer::new(&dev, TrainConfig::reversal());
    c.bench_function("train_step_batch_64", |b| b.iter(|| trainer.step()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = step
}
criterion_main!(benches);
