//! The GPU kernel (`src/gpu/attention.cu`) run on the CPU, unchanged: compiled by the C compiler
//! under `tests/fixtures/cuda_on_host.h` (each GPU thread a POSIX thread, `__syncthreads()` a
//! barrier), launched as `Launch::plan` says, and compared with the dense computation. This checks
//! the kernel's indexing, its tiles, its causal skipping and its online softmax on any machine;
//! the GPU kit compares it with chapter 1's attention on a real GPU.

use ch08_efficient::gpu::{plan, Config, Launch, SOURCE};
use ch08_efficient::{dense, Causal, Full, Heads, Pattern};
use dfdx::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles the kernel for `config` into an executable (once per configuration per run).
fn build(config: Config) -> PathBuf {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(config.module());
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.h"), config.defines()).unwrap();
    std::fs::write(dir.join("attention.cu"), SOURCE).unwrap();
    let exe = dir.join("run_kernel");
    let cc = Command::new("cc")
        .args(["-O2", "-std=c11", "-pthread", "-I"])
        .arg(&dir)
        .arg("-I")
        .arg(&fixtures)
        .arg("-o")
        .arg(&exe)
        .arg(fixtures.join("run_kernel.c"))
        .arg("-lm")
        .output()
        .expect("the C compiler `cc` runs");
    assert!(cc.status.success(), "cc failed: {}", String::from_utf8_lossy(&cc.stderr));
    exe
}

/// The kernel's output for one call, run on the CPU.
fn on_host(q: &Heads, k: &Heads, v: &Heads, causal: bool) -> Heads {
    let launch = Launch::plan(q.heads, q.n, q.d).unwrap();
    let exe = build(launch.config);
    let dir = exe.parent().unwrap();
    let name = format!("{}x{}-{causal}", q.heads, q.n);
    let (input, output) = (dir.join(format!("{name}.in")), dir.join(format!("{name}.out")));
    let (g, b) = (launch.grid, launch.block);
    let ints = [g.0 as i32, g.1 as i32, b.0 as i32, q.n as i32, causal as i32];
    let mut bytes: Vec<u8> = ints.iter().flat_map(|i| i.to_le_bytes()).collect();
    bytes.extend(launch.scale.to_le_bytes());
    for x in [q, k, v].iter().flat_map(|t| &t.data) {
        bytes.extend(x.to_le_bytes());
    }
    std::fs::write(&input, bytes).unwrap();
    let run = Command::new(&exe).arg(&input).arg(&output).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let data = std::fs::read(&output).unwrap();
    let data = data.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    Heads::new(q.heads, q.n, q.d, data)
}

/// The largest difference from the dense computation, for `heads` heads of `n` rows of width `D`.
fn largest_difference<const D: usize>(heads: usize, n: usize, causal: bool) -> f32 {
    let (q, k, v) = (
        Heads::random(1, heads, n, D),
        Heads::random(2, heads, n, D),
        Heads::random(3, heads, n, D),
    );
    let pattern: &dyn Pattern = if causal { &Causal } else { &Full };
    let want = dense::<D, D, _>(&Cpu::default(), &q, &k, &v, pattern);
    let got = on_host(&q, &k, &v, causal);
    got.data.iter().zip(&want.data).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max)
}

#[test]
fn the_kernel_equals_dense_attention_with_and_without_the_mask() {
    // lengths that are not multiples of the tiles (64 queries; 64 or 32 keys), several heads
    for (heads, n) in [(1, 1), (3, 37), (2, 130), (6, 200)] {
        for causal in [false, true] {
            let diff = largest_difference::<64>(heads, n, causal);
            assert!(diff < 1e-5, "d 64, {heads} heads, n {n}, causal {causal}: {diff}");
        }
    }
    for causal in [false, true] {
        let diff = largest_difference::<128>(2, 97, causal);
        assert!(diff < 1e-5, "d 128, n 97, causal {causal}: {diff}");
    }
}

#[test]
fn the_plan_sizes_the_tiles_and_the_grid() {
    let d64 = Config::for_head_dim(64).unwrap();
    let d128 = Config::for_head_dim(128).unwrap();
    assert_eq!((d64.tile_k, d64.shared_bytes()), (64, 32 * 1024));
    assert_eq!((d128.tile_k, d128.shared_bytes()), (32, 32 * 1024));
    let launch = Launch::plan(16, 8192, 64).unwrap();
    assert_eq!((launch.grid, launch.block), ((128, 16, 1), (64, 1, 1)));
    assert_eq!(launch.scale, 0.125);
    assert_eq!(Launch::plan(1, 65, 128).unwrap().grid, (2, 1, 1));
    // causal: block b reads keys up to its last query, so (b + 1) key tiles of 64
    assert_eq!(plan::tiles_loaded(8192, 64, false), 128 * 128);
    assert_eq!(plan::tiles_loaded(8192, 64, true), 128 * 129 / 2);
    assert_eq!(plan::tiles_loaded(100, 32, true), 2 + 4);
    assert_eq!(plan::flops(8, 8192, 64, false), 4.0 * 8.0 * 8192.0 * 8192.0 * 64.0);
    assert_eq!(plan::flops(8, 8192, 64, true), plan::flops(8, 8192, 64, false) / 2.0);
}

#[test]
fn the_plan_refuses_what_the_kernel_cannot_do() {
    use ch08_efficient::gpu::GpuAttentionError as E;
    assert_eq!(Launch::plan(0, 10, 64), Err(E::Empty { heads: 0, n: 10 }));
    assert_eq!(Launch::plan(4, 0, 64), Err(E::Empty { heads: 4, n: 0 }));
    assert_eq!(Launch::plan(4, 10, 96), Err(E::HeadWidth(96)));
    assert_eq!(Launch::plan(65_536, 10, 64), Err(E::TooManyHeads(65_536)));
    assert!(Launch::plan(65_535, 10, 64).is_ok());
    let said = E::HeadWidth(96).to_string();
    assert_eq!(said, "head width 96: the kernel is built for 64 and 128");
}
