//! Time of each method against the sequence length, batch 1, 8 heads, d_k 64, f32. Run with
//! `cargo xtask bench`, which also measures peak memory and writes the book's table and plots.

use std::time::Duration;

use ch08_efficient::measure::{inputs, Method};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn methods(c: &mut Criterion) {
    let only = std::env::var("CH08_METHODS").ok();
    for method in Method::ALL {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|m| m == method.id())) {
            continue;
        }
        let mut group = c.benchmark_group(method.id());
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        for &n in method.lengths() {
            let [q, k, v] = inputs(n);
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter(|| method.run(&q, &k, &v))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, methods);
criterion_main!(benches);
