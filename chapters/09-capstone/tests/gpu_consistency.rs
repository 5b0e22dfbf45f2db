//! The same committed model gives the same outputs on an NVIDIA GPU as on the CPU: logits within
//! 1e-4 (GPU matrix products sum in another order) and the same greedy answers. It runs only when
//! built with `--features cuda` on a machine with a GPU, and says so when it is skipped.

#[test]
fn gpu_matches_cpu() {
    #[cfg(not(feature = "cuda"))]
    eprintln!("skipped: built without the `cuda` feature; run `cargo test -p ch09-capstone --features cuda` on a machine with an NVIDIA GPU");
    #[cfg(feature = "cuda")]
    on_gpu();
}

#[cfg(feature = "cuda")]
fn on_gpu() {
    use ch09_capstone::decode::greedy;
    use ch09_capstone::train::ids;
    use ch09_capstone::trained::load_model;
    use dfdx::prelude::*;

    let gpu = match Cuda::try_seed_from_u64(0) {
        Ok(dev) => dev,
        Err(e) => {
            eprintln!("skipped: built with `cuda`, but no GPU could be opened ({e:?})");
            return;
        }
    };
    let cpu = Cpu::default();
    let (on_cpu, on_gpu) = (load_model(&cpu).unwrap(), load_model(&gpu).unwrap());
    let src = vec![vec![6usize, 4, 7, 4, 8], vec![12, 11, 10, 9, 3]];
    let (memory_cpu, _) = on_cpu.try_encode(ids(&cpu, &src), None).unwrap();
    let (memory_gpu, _) = on_gpu.try_encode(ids(&gpu, &src), None).unwrap();
    support::assert_close(&memory_gpu.as_vec(), &memory_cpu.as_vec(), 1e-4);
    let inputs = vec![vec![3, 1, 4, 1, 5], vec![9, 8, 7, 6, 5, 4, 3, 2, 1, 0]];
    assert_eq!(greedy(&on_gpu, &gpu, &inputs), greedy(&on_cpu, &cpu, &inputs));
}
