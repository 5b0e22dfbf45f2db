//! The book's CUDA kernels timed on the GPU beside chapter 1's attention on dfdx, at the shapes
//! of PyTorch's timings (`compare/sdpa_gpu.py`): batch 1, 8 heads, d_k 64, without and with the
//! causal mask; the plain kernel in float32, the tensor-core kernel on float16 and bfloat16 inputs;
//! best of 3 after a warm-up, each ending when the GPU has finished. Prints milliseconds and
//! TFLOP/s (`4 · heads · n² · d`, halved with the mask).
//!
//! `cargo run --release -p ch08-efficient --features cuda --example gpu_timing [-- N ...]`
//! (the GPU kit builds and runs it: `run.sh --timings`).
fn main() {
    let args = support::cli::args_or_exit();
    let lengths: Vec<usize> = if args.is_empty() {
        vec![512, 1024, 2048, 4096, 8192, 16384]
    } else {
        let parse = |a: &String| {
            let n = a.parse().ok().filter(|&n| n > 0);
            n.ok_or(format!("not a sequence length: {a:?}; usage: gpu_timing [N ...]"))
        };
        args.iter().map(|a| support::cli::or_exit(parse(a))).collect()
    };
    #[cfg(feature = "cuda")]
    timing::run(&lengths);
    #[cfg(not(feature = "cuda"))]
    support::cli::or_exit::<(), String>(Err(format!(
        "gpu_timing times the CUDA kernels on an NVIDIA GPU: build it with `--features cuda` \
         (asked for n = {lengths:?})"
    )));
}

#[cfg(feature = "cuda")]
mod timing {
    use ch01_attention::{broadcast_mask, causal_allowed, scaled_dot_product_attention};
    use ch08_efficient::gpu::{plan, tensor_core_attention, tf32x3_attention, tiled_attention};
    use ch08_efficient::gpu::{to_halves, Half};
    use dfdx::prelude::*;
    use std::time::Instant;

    const HEADS: usize = 8;
    const D_K: usize = 64;

    /// The best of three runs of `f` after one, in seconds.
    fn best(dev: &Cuda, mut f: impl FnMut()) -> f64 {
        let mut run = || {
            let start = Instant::now();
            f();
            dev.synchronize();
            start.elapsed().as_secs_f64()
        };
        run();
        (0..3).map(|_| run()).fold(f64::INFINITY, f64::min)
    }

    pub fn run(lengths: &[usize]) {
        let dev = Cuda::seed_from_u64(0);
        println!("batch 1, {HEADS} heads, d_k {D_K}; best of 3 after a warm-up; ms (TFLOP/s)");
        println!("plain: the float32 kernel, one thread per query row; 3xTF32: float32 on the");
        println!("tensor cores; f16, bf16: the tensor-core kernel on inputs already in half");
        println!("precision; chapter 1: dfdx, float32");
        let head = ["n", "causal", "plain", "3xTF32", "f16", "bf16", "chapter 1"];
        let [a, b, c, d, e, f, g] = head;
        println!("{a:>6} {b:>6} {c:>17} {d:>17} {e:>17} {f:>17} {g:>17}");
        for &n in lengths {
            let shape = (Const::<1>, Const::<HEADS>, n, Const::<D_K>);
            let [q, k, v] = [1, 2, 3].map(|seed| support::normal_tensor(&dev, seed, shape));
            let f16 = to_halves(&q, &k, &v, Half::F16).unwrap();
            let bf16 = to_halves(&q, &k, &v, Half::Bf16).unwrap();
            for causal in [false, true] {
                let flops = plan::flops(HEADS, n, D_K, causal);
                let cell =
                    |seconds: f64| format!("{:.3} ({:.1})", seconds * 1e3, flops / seconds / 1e12);
                let plain = best(&dev, || drop(tiled_attention(&q, &k, &v, causal).unwrap()));
                let tf32 = best(&dev, || drop(tf32x3_attention(&q, &k, &v, causal).unwrap()));
                let f16_s = best(&dev, || drop(tensor_core_attention(&f16, causal).unwrap()));
                let bf16_s = best(&dev, || drop(tensor_core_attention(&bf16, causal).unwrap()));
                // chapter 1 holds the n × n weights: 8 GiB of them per call at n = 16,384
                let mask =
                    causal.then(|| broadcast_mask(causal_allowed(&dev, n), Const::<1>, Const));
                let dense = best(&dev, || {
                    drop(scaled_dot_product_attention(
                        q.clone(),
                        k.clone(),
                        v.clone(),
                        mask.as_ref(),
                    ))
                });
                println!(
                    "{n:>6} {causal:>6} {:>17} {:>17} {:>17} {:>17} {:>17}",
                    cell(plain),
                    cell(tf32),
                    cell(f16_s),
                    cell(bf16_s),
                    cell(dense)
                );
            }
        }
    }
}
