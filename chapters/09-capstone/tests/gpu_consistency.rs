//! The same committed model gives the same outputs on an NVIDIA GPU as on the CPU: encoder outputs
//! within 1e-4 (GPU matrix products sum in another order) and the same greedy answers.
//!
//! Compiled only with `--features cuda` (`cargo test -p ch09-capstone --features cuda`): without the
//! feature there is no test here at all, rather than one that passes without running. Built with
//! the feature, the test needs a GPU and its driver, and fails if none can be opened.
#![cfg(feature = "cuda")]

use ch09_capstone::data::ids;
use ch09_capstone::decode::greedy;
use ch09_capstone::trained::load_model;
use dfdx::prelude::*;

#[test]
fn gpu_matches_cpu() {
    let gpu = Cuda::try_seed_from_u64(0).unwrap_or_else(|e| {
        panic!(
            "built with `cuda`, but no GPU could be opened ({e:?}): this test needs an NVIDIA GPU \
             and its driver (check `nvidia-smi`); build without `--features cuda` on a machine \
             without one"
        )
    });
    let cpu = Cpu::default();
    let (on_cpu, on_gpu) = (load_model(&cpu), load_model(&gpu));
    let src = vec![vec![6usize, 4, 7, 4, 8], vec![12, 11, 10, 9, 3]];
    let (memory_cpu, _) = on_cpu.try_encode(ids(&cpu, &src), None).unwrap();
    let (memory_gpu, _) = on_gpu.try_encode(ids(&gpu, &src), None).unwrap();
    support::assert_close(&memory_gpu.as_vec(), &memory_cpu.as_vec(), 1e-4);
    let inputs = vec![vec![3, 1, 4, 1, 5], vec![9, 8, 7, 6, 5, 4, 3, 2, 1, 0]];
    assert_eq!(greedy(&on_gpu, &gpu, &inputs), greedy(&on_cpu, &cpu, &inputs));
}
