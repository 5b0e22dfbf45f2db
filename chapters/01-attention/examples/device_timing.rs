//! How long the batched attention function takes on the device it is built for: the CPU, or an
//! NVIDIA GPU with `--features cuda`. Batch 1, 8 heads, d_k 64, f32, seeded random inputs; best of
//! 3 runs after one warm-up, each ending when the device has finished (`synchronize`).
//!
//! `cargo run --release -p ch01-attention --example device_timing [-- N ...]`
//! (default n = 512 1024 2048 4096 8192; at 8192 the score matrix alone takes 2 GiB).
use ch01_attention::scaled_dot_product_attention;
use dfdx::prelude::*;
use std::time::Instant;
use support::Dev;

const HEADS: usize = 8;
const D_K: usize = 64;

fn main() {
    let args = support::cli::args_or_exit();
    let lengths: Vec<usize> = if args.is_empty() {
        vec![512, 1024, 2048, 4096, 8192]
    } else {
        let parse = |a: &String| {
            let n = a.parse().ok().filter(|&n| n > 0);
            n.ok_or(format!("not a sequence length: {a:?}; usage: device_timing [N ...]"))
        };
        args.iter().map(|a| support::cli::or_exit(parse(a))).collect()
    };
    let dev = support::seeded_device(0);
    println!("device: {}", std::any::type_name::<Dev>());
    println!("batch 1, {HEADS} heads, d_k {D_K}, f32; best of 3 after a warm-up");
    println!("{:>6} {:>12} {:>10}", "n", "ms", "GFLOP/s");
    for n in lengths {
        let shape = (Const::<1>, Const::<HEADS>, n, Const::<D_K>);
        let q = support::normal_tensor(&dev, 1, shape);
        let k = support::normal_tensor(&dev, 2, shape);
        let v = support::normal_tensor(&dev, 3, shape);
        let run = || {
            let start = Instant::now();
            let (out, weights) =
                scaled_dot_product_attention(q.clone(), k.clone(), v.clone(), None);
            dev.synchronize();
            let seconds = start.elapsed().as_secs_f64();
            drop((out, weights));
            seconds
        };
        run();
        let best = (0..3).map(|_| run()).fold(f64::INFINITY, f64::min);
        // two products of (n × n × d_k) per head: Q·Kᵀ and weights·V
        let flops = 4.0 * (HEADS * n * n * D_K) as f64;
        println!("{n:>6} {:>12.3} {:>10.1}", best * 1e3, flops / best / 1e9);
    }
}
