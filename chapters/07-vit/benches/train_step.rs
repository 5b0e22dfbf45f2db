//! How long one training step of the digits ViT takes (batch of 32: forward, backward, Adam), and
//! one evaluation pass over a batch of 256.
//!
//! `cargo xtask bench` (or `cargo bench -p ch07-vit`); reports land in `target/criterion/`.
use ch07_vit::digits::Digits;
use ch07_vit::{DigitsModel, DigitsVit, Mode, TrainConfig, Trainer};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dfdx::tensor::{Cache, Synchronize};
use support::Dev;

fn train_step(c: &mut Criterion) {
    let config = TrainConfig::digits();
    let dev = support::seeded_device(config.seed);
    dev.enable_cache(); // as the `train` example does
    let data = Digits::load();
    let batch: Vec<usize> = (0..config.batch_size).collect();
    let mut trainer = Trainer::<DigitsVit<Dev>, Dev>::new(&dev, config.clone(), 1_000_000);
    let mut group = c.benchmark_group("digits_vit");
    group.throughput(Throughput::Elements(batch.len() as u64)); // images per second
    let name = format!("train_step_batch_{}", config.batch_size);
    group.bench_function(name, |b| b.iter(|| black_box(trainer.step(&data, &batch))));
    let images = data.images(&dev, &(0..256).collect::<Vec<_>>());
    group.throughput(Throughput::Elements(256));
    group.bench_function("eval_batch_256", |b| {
        b.iter(|| {
            let logits = trainer.model.logits(images.clone(), Mode::Eval);
            dev.synchronize(); // a GPU returns before its kernels finish; the CPU has finished
            black_box(logits)
        })
    });
    group.finish();
}

criterion_group!(benches, train_step);
criterion_main!(benches);
