//! The GPU kernels (`src/gpu/*.cu`) run on the CPU, unchanged: compiled by the C compiler under
//! `tests/fixtures/cuda_on_host.h` (a block's GPU threads taking turns on one processor thread,
//! `__syncthreads()` a barrier; `mma_on_host.h` rebuilds the tensor cores' operands from every
//! lane's fragments), launched as `Launch::plan` says, and compared with the dense computation. This checks the kernels'
//! indexing, tiles, causal skipping, online softmax and fragment layouts on any machine; the GPU
//! kit compares them with chapter 1's attention on a real GPU.

use ch08_efficient::gpu::{plan, Config, Half, Kernel, Launch};
use ch08_efficient::{dense, Causal, Full, Heads, Pattern};
use dfdx::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles the kernel for `config` into an executable.
fn build(config: Config) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(config.module());
    std::fs::create_dir_all(&dir).unwrap();
    let (mma, file) = match config.kernel {
        Kernel::Plain => (0, "attention.cu"),
        Kernel::TensorCores(_) => (1, "attention_mma.cu"),
        Kernel::Tf32x3 => (2, "attention_tf32.cu"),
    };
    let config_h = config.defines() + &format!("#define MMA {mma}\n");
    std::fs::write(dir.join("config.h"), config_h).unwrap();
    std::fs::write(dir.join(file), config.source()).unwrap();
    std::fs::write(dir.join("common.cuh"), ch08_efficient::gpu::COMMON).unwrap();
    std::fs::write(dir.join("warp_softmax.cuh"), ch08_efficient::gpu::WARP_SOFTMAX).unwrap();
    compile(&fixtures().join("run_kernel.c"), &dir)
}

/// The stand-in's headers and its launcher, `tests/fixtures`.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Compiles the C program `source` with the headers of `dir` and of the fixtures into
/// `dir/run_kernel`.
fn compile(source: &Path, dir: &Path) -> PathBuf {
    let exe = dir.join("run_kernel");
    let cc = Command::new("cc")
        .args(["-O2", "-std=c11", "-I"])
        .arg(dir)
        .arg("-I")
        .arg(fixtures())
        .arg("-o")
        .arg(&exe)
        .arg(source)
        .arg("-lm")
        .output()
        .expect("the C compiler `cc` runs");
    assert!(cc.status.success(), "cc failed: {}", String::from_utf8_lossy(&cc.stderr));
    exe
}

/// A kernel whose odd threads leave before the block's barrier would hang on a GPU; the
/// stand-in's threads take turns, so it sees that no turn can move and says so.
#[test]
fn a_barrier_that_cannot_fill_is_reported() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stuck-barrier");
    std::fs::create_dir_all(&dir).unwrap();
    let program = "#define _XOPEN_SOURCE 700\n#define TILE_K 8\n#define HEAD_DIM 8\n\
        #include \"cuda_on_host.h\"\n\
        static void stuck(void) {\n\
            if (threadIdx.x % 2 == 0) __syncthreads();\n\
        }\n\
        int main(void) {\n\
            static struct gpu_thread threads[4];\n\
            static char stacks[4 * 65536];\n\
            block_barrier = (struct barrier){4, 0, 0};\n\
            run_block(threads, 4, (uint3){1, 2, 0}, stuck, stacks, 65536);\n\
            return 0;\n\
        }\n";
    let source = dir.join("stuck.c");
    std::fs::write(&source, program).unwrap();
    let out = Command::new(compile(&source, &dir)).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    let want = "run_kernel: block (1, 2): 2 threads wait at barriers that cannot fill\n";
    assert_eq!((out.status.code(), said.as_ref()), (Some(4), want));
}

/// The kernel's output for one call, run on the CPU.
fn on_host(kernel: Kernel, q: &Heads, k: &Heads, v: &Heads, causal: bool) -> Heads {
    let launch = Launch::plan(kernel, q.heads, q.n, q.d).unwrap();
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

/// `x` rounded to `half` and back, as the GPU's `to_halves` rounds it.
fn rounded(x: &Heads, half: Half) -> Heads {
    let round = |v: &f32| match half {
        Half::F16 => half::f16::from_f32(*v).to_f32(),
        Half::Bf16 => half::bf16::from_f32(*v).to_f32(),
    };
    Heads::new(x.heads, x.n, x.d, x.data.iter().map(round).collect())
}

/// How far the float32 kernels may be from the dense computation.
const FLOAT32_BOUND: f32 = 1e-5;

/// The relative rounding of one weight to float16 and to bfloat16: half an ulp at 1 (11 and 8
/// significant bits).
const F16_ROUNDING: i32 = -11;
const BF16_ROUNDING: i32 = -8;

/// The largest difference between `kernel` and the dense computation, and the bound it must
/// stay within: 1e-5 in float32 (3xTF32 included); with halves, the rounding of the weights P to the half type
/// (relative error at most 2^-11 for float16, 2^-8 for bfloat16) times the largest |v|, the dense
/// computation taking the same rounded inputs.
fn difference<const D: usize>(kernel: Kernel, heads: usize, n: usize, causal: bool) -> (f32, f32) {
    let qkv = [1, 2, 3].map(|seed| Heads::random(seed, heads, n, D));
    let [q, k, v] = match kernel {
        Kernel::Plain | Kernel::Tf32x3 => qkv,
        Kernel::TensorCores(half) => qkv.map(|x| rounded(&x, half)),
    };
    let pattern: &dyn Pattern = if causal { &Causal } else { &Full };
    let want = dense::<D, D, _>(&Cpu::default(), &q, &k, &v, pattern);
    let got = on_host(kernel, &q, &k, &v, causal);
    let largest_v = v.data.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let bound = match kernel {
        Kernel::Plain | Kernel::Tf32x3 => FLOAT32_BOUND,
        Kernel::TensorCores(Half::F16) => 2f32.powi(F16_ROUNDING) * largest_v + FLOAT32_BOUND,
        Kernel::TensorCores(Half::Bf16) => 2f32.powi(BF16_ROUNDING) * largest_v + FLOAT32_BOUND,
    };
    let diff = got.data.iter().zip(&want.data).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    (diff, bound)
}

/// Every shape the kernels are checked at: lengths that are not multiples of the tiles (64
/// queries; 64 or 32 keys), several heads, both head widths, with and without the mask. The
/// tensor-core kernels leave out the largest (their warp-wide steps are slow to stand in for).
fn check_every_shape(kernel: Kernel) {
    let shapes: &[(usize, usize)] = match kernel {
        Kernel::Plain => &[(1, 1), (3, 37), (2, 130), (6, 200)],
        _ => &[(1, 1), (3, 37), (2, 130)],
    };
    for &(heads, n) in shapes {
        for causal in [false, true] {
            let (diff, bound) = difference::<64>(kernel, heads, n, causal);
            println!("{kernel:?}, d 64, {heads} heads, n {n}, causal {causal}: {diff:e} (bound {bound:e})");
            assert!(
                diff <= bound,
                "{kernel:?} d 64, {heads} heads, n {n}, causal {causal}: {diff}"
            );
        }
    }
    for causal in [false, true] {
        let (diff, bound) = difference::<128>(kernel, 2, 97, causal);
        println!("{kernel:?}, d 128, 2 heads, n 97, causal {causal}: {diff:e} (bound {bound:e})");
        assert!(diff <= bound, "{kernel:?} d 128, n 97, causal {causal}: {diff}");
    }
}

#[test]
fn the_plain_kernel_equals_dense_attention_with_and_without_the_mask() {
    check_every_shape(Kernel::Plain);
}

#[test]
fn the_float32_tensor_core_kernel_equals_dense_attention_with_and_without_the_mask() {
    check_every_shape(Kernel::Tf32x3);
}

#[test]
fn the_tensor_core_kernel_in_float16_equals_dense_attention_within_its_rounding() {
    check_every_shape(Kernel::TensorCores(Half::F16));
}

#[test]
fn the_tensor_core_kernel_in_bfloat16_equals_dense_attention_within_its_rounding() {
    check_every_shape(Kernel::TensorCores(Half::Bf16));
}

#[test]
fn the_plan_sizes_the_tiles_and_the_grid() {
    let plain = |d| Config::new(Kernel::Plain, d).unwrap();
    let cores = |d| Config::new(Kernel::TensorCores(Half::F16), d).unwrap();
    assert_eq!((plain(64).tile_k, plain(64).shared_bytes()), (64, 32 * 1024));
    assert_eq!((plain(128).tile_k, plain(128).shared_bytes()), (32, 32 * 1024));
    // 64 keys of 64 + 8 halves, and 64 dims of 64 + 8 keys; with d 128, 136 and 72 per row
    assert_eq!((cores(64).tile_k, cores(64).shared_bytes()), (64, 18_432));
    assert_eq!((cores(128).tile_k, cores(128).shared_bytes()), (64, 35_840));
    // 3xTF32: keys and values of 64 + 4 floats (d 64, 64 keys) and 128 + 4 (d 128, 32 keys)
    let tf32 = |d| Config::new(Kernel::Tf32x3, d).unwrap();
    assert_eq!((tf32(64).tile_k, tf32(64).shared_bytes()), (64, 34_816));
    assert_eq!((tf32(128).tile_k, tf32(128).shared_bytes()), (32, 33_792));
    let launch = Launch::plan(Kernel::Plain, 16, 8192, 64).unwrap();
    assert_eq!((launch.grid, launch.block), ((64, 16, 1), (128, 1, 1)));
    assert_eq!(launch.scale, 0.125);
    let launch = Launch::plan(Kernel::TensorCores(Half::Bf16), 16, 8192, 64).unwrap();
    assert_eq!((launch.grid, launch.block), ((64, 16, 1), (256, 1, 1)));
    assert_eq!(launch.scale, std::f32::consts::LOG2_E / 8.0);
    assert_eq!(Launch::plan(Kernel::Plain, 1, 129, 128).unwrap().grid, (2, 1, 1));
    // causal: block b of 128 queries reads keys up to its last query, so 2 (b + 1) key tiles of 64
    assert_eq!(plan::tiles_loaded(8192, 64, false), 64 * 128);
    assert_eq!(plan::tiles_loaded(8192, 64, true), 64 * 65);
    assert_eq!(plan::tiles_loaded(100, 32, true), 4);
    assert_eq!(plan::flops(8, 8192, 64, false), 4.0 * 8.0 * 8192.0 * 8192.0 * 64.0);
    assert_eq!(plan::flops(8, 8192, 64, true), plan::flops(8, 8192, 64, false) / 2.0);
}

#[test]
fn the_plan_refuses_what_the_kernels_cannot_do() {
    use ch08_efficient::gpu::GpuAttentionError as E;
    let plain = Kernel::Plain;
    assert_eq!(Launch::plan(plain, 0, 10, 64), Err(E::Empty { heads: 0, n: 10 }));
    assert_eq!(Launch::plan(plain, 4, 0, 64), Err(E::Empty { heads: 4, n: 0 }));
    assert_eq!(Launch::plan(plain, 4, 10, 96), Err(E::HeadWidth(96)));
    assert_eq!(Launch::plan(Kernel::TensorCores(Half::F16), 4, 10, 32), Err(E::HeadWidth(32)));
    assert_eq!(Launch::plan(plain, 65_536, 10, 64), Err(E::TooManyHeads(65_536)));
    assert!(Launch::plan(plain, 65_535, 10, 64).is_ok());
    let said = E::HeadWidth(96).to_string();
    assert_eq!(said, "head width 96: the kernel is built for 64 and 128");
}

#[test]
fn the_gpu_page_is_the_plan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("../../book/src/08-efficient.md")).unwrap();
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let cores = Config::new(Kernel::TensorCores(Half::F16), 64).unwrap();
    let warps = cores.threads() / 32;
    let said = [
        format!("one block per tile of {} queries of one head", ch08_efficient::gpu::TILE_Q),
        format!(
            "The second kernel gives each warp {} query rows",
            ch08_efficient::gpu::TILE_Q / warps
        ),
        // m16n8k16: 8 keys (n) per instruction, 16 dims summed (k)
        "for 8 keys per `mma.sync.m16n8k16` instruction".to_string(),
        "the float32 kernels within $10^{-5}$".to_string(),
        "$2^{-11}$ (float16) or $2^{-8}$ (bfloat16) of the largest $|v|$".to_string(),
        "TF32 numbers (10 stored mantissa bits)".to_string(),
    ];
    for s in &said {
        assert!(page.contains(s.as_str()), "chapter 8 should say {s:?}");
    }
    assert_eq!((FLOAT32_BOUND, F16_ROUNDING, BF16_ROUNDING), (1e-5, -11, -8));
    assert!(ch08_efficient::gpu::SOURCE_MMA.contains("mma.sync.aligned.m16n8k16"));
    // TF32 keeps 10 of float32's 23 mantissa bits: the stand-in's rounding clears the other 13
    let host = std::fs::read_to_string(fixtures().join("mma_on_host.h")).unwrap();
    assert!(host.contains("& 0xffffe000u"));
    assert_eq!((0xffffe000u32 & 0x007f_ffff).count_ones(), 10);
}
