//! How the from-scratch multi-head attention compares with dfdx's built-in layer as the sequence
//! grows (d_model 64, 8 heads, batch 2), and how the cost of the attention itself grows with the
//! sequence length.
//!
//! `cargo xtask bench` (or `cargo bench -p ch03-multi-head`); reports land in `target/criterion/`.
use ch01_attention::scaled_dot_product_attention;
use ch03_multi_head::Mha64x8;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dfdx::nn::{builders, DeviceBuildExt, Module};
use dfdx::prelude::*;

const LENGTHS: [usize; 3] = [16, 64, 256];

fn multi_head(c: &mut Criterion) {
    let dev = support::seeded_device(0);
    let builtin = dev.build_module::<builders::MultiHeadAttention<64, 8>, f32>();
    let ours = Mha64x8::from(&builtin);
    let mut group = c.benchmark_group("multi_head_d64_h8_b2");
    for len in LENGTHS {
        let x = support::normal_tensor(&dev, 1, (2, len, Const::<64>));
        group.throughput(Throughput::Elements((2 * len) as u64)); // tokens per second
        group.bench_with_input(BenchmarkId::new("from_scratch", len), &x, |b, x| {
            b.iter(|| black_box(ours.self_attention(x.clone(), None)))
        });
        group.bench_with_input(BenchmarkId::new("dfdx_builtin", len), &x, |b, x| {
            b.iter(|| black_box(builtin.forward((x.clone(), x.clone(), x.clone()))))
        });
    }
    group.finish();
}

fn attention_alone(c: &mut Criterion) {
    let dev = support::seeded_device(0);
    let mut group = c.benchmark_group("sdpa_b2_h8_dk8");
    for len in LENGTHS {
        let shape = (2, Const::<8>, len, Const::<8>);
        let q = support::normal_tensor(&dev, 1, shape);
        let k = support::normal_tensor(&dev, 2, shape);
        let v = support::normal_tensor(&dev, 3, shape);
        // the score matrix has len * len entries per head: the quadratic cost chapter 8 attacks
        group.throughput(Throughput::Elements((2 * 8 * len * len) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(len), &len, |b, _| {
            b.iter(|| {
                black_box(scaled_dot_product_attention(q.clone(), k.clone(), v.clone(), None))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, multi_head, attention_alone);
criterion_main!(benches);
