//! Collects what `cargo xtask bench` measured into `measurements/results.json`: criterion's mean times
//! (from `target/criterion`), and the peak memory of each method at a few lengths, each measured
//! in a fresh process (this program, run again with `--memory METHOD N`); then the page's tables
//! (`measurements/*.md`) from the results. `--tables` only rewrites the tables.

use std::path::Path;
use std::process::Command;

use ch08_efficient::fast::{Isa, Scratch};
use ch08_efficient::measure::results::{Memory, Timing};
use ch08_efficient::measure::{breakdown, inputs, Method, D, HEADS};
use ch08_efficient::measure::{gpu_tables, limits_tables, measured, pytorch_tables, Measured};
use ch08_efficient::TILES;

/// Where memory is measured: the dense form while it fits, the rest up to n = 16,384 and beyond.
const MEMORY_POINTS: [(Method, usize); 9] = [
    (Method::Dense, 1024),
    (Method::Dense, 2048),
    (Method::Dense, 4096),
    (Method::Fast, 2048),
    (Method::Fast, 8192),
    (Method::Fast, 16384),
    (Method::SlidingFast, 16384),
    (Method::Linear, 16384),
    (Method::Linear, 65536),
];

/// A line of `/proc/self/status`, in bytes.
fn status_bytes(key: &str) -> u64 {
    let status =
        std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (Linux only)");
    let line = status
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in /proc/self/status"));
    let kib: u64 =
        line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a size in kB");
    kib * 1024
}

fn measure_memory(method: Method, n: usize) -> Memory {
    rayon::ThreadPoolBuilder::new().build_global().ok(); // start the threads before measuring
    let base_bytes = status_bytes("VmRSS:");
    let [q, k, v] = inputs(n);
    let out = method.run(&q, &k, &v);
    let peak_bytes = status_bytes("VmHWM:");
    let data_bytes = 4 * (q.data.len() + k.data.len() + v.data.len() + out.data.len()) as u64;
    let uses_tiles = matches!(
        method,
        Method::Fast | Method::FastCausal | Method::SlidingFast | Method::SlidingMasked
    );
    let per_thread = Scratch::new(Isa::chosen(), TILES, (D, D)).bytes() as u64;
    let scratch_bytes =
        if uses_tiles { per_thread * rayon::current_num_threads() as u64 } else { 0 };
    Memory { method: method.id().into(), n, peak_bytes, base_bytes, data_bytes, scratch_bytes }
}

fn criterion_times(root: &Path) -> Vec<Timing> {
    let mut times = Vec::new();
    for method in Method::ALL {
        for &n in method.lengths() {
            let path =
                root.join(format!("target/criterion/{}/{n}/new/estimates.json", method.id()));
            let Ok(text) = std::fs::read_to_string(&path) else {
                eprintln!("not measured: {} at n = {n} ({} missing)", method.id(), path.display());
                continue;
            };
            let json: serde_json::Value =
                serde_json::from_str(&text).expect("criterion's estimates are JSON");
            let ns = json["mean"]["point_estimate"].as_f64().expect("a mean estimate");
            times.push(Timing { method: method.id().into(), n, seconds: ns * 1e-9 });
        }
    }
    times
}

fn machine() -> String {
    let rustc = Command::new("rustc")
        .arg("-V")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let isa = Isa::chosen().name();
    format!(
        "{}, {rustc}; the fast kernel's {isa} path; batch 1, {HEADS} heads, d_k {D}, f32",
        support::machine::describe()
    )
}

/// `measurements/time.md`, `measurements/memory.md`, `measurements/pytorch.md` from every
/// comparison run in `measurements/pytorch/`, and `measurements/limits.md` from every machine in
/// `measurements/limits/`.
fn write_tables(dir: &Path) {
    let results = measured();
    std::fs::write(dir.join("time.md"), results.time_table()).expect("write time.md");
    std::fs::write(dir.join("memory.md"), results.memory_table()).expect("write memory.md");
    std::fs::write(dir.join("pytorch.md"), pytorch_tables()).expect("write pytorch.md");
    std::fs::write(dir.join("limits.md"), limits_tables()).expect("write limits.md");
    std::fs::write(dir.join("gpu.md"), gpu_tables()).expect("write gpu.md");
    let kernels = ch08_efficient::gpu::plan::kernels_table();
    std::fs::write(dir.join("gpu-kernels.md"), kernels).expect("write gpu-kernels.md");
    println!("wrote the tables in {}", dir.display());
}

fn main() {
    let args = support::cli::args_or_exit();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements");
    if args.first().map(String::as_str) == Some("--tables") {
        write_tables(&dir);
        return;
    }
    if args.first().map(String::as_str) == Some("--memory") {
        let method = Method::from_id(&args[1]).expect("a method id");
        let n: usize = args[2].parse().expect("a length");
        println!("{}", serde_json::to_string(&measure_memory(method, n)).expect("serialisable"));
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let times = criterion_times(&root);
    let me = std::env::current_exe().expect("the path of this program");
    let memory = MEMORY_POINTS
        .iter()
        .map(|(method, n)| {
            let out = Command::new(&me)
                .args(["--memory", method.id(), &n.to_string()])
                .output()
                .expect("run the memory probe");
            assert!(
                out.status.success(),
                "memory probe failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let m: Memory = serde_json::from_slice(&out.stdout).expect("the probe prints JSON");
            eprintln!(
                "{:<16} n = {n:>6}: {:.1} MiB used, ratio {:.2}",
                method.id(),
                m.used() as f64 / 1048576.0,
                m.ratio()
            );
            m
        })
        .collect();
    let breakdown = breakdown();
    eprintln!("{breakdown:?}");
    let results = Measured { machine: machine(), times, memory, breakdown };
    let path = dir.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&results).expect("serialisable") + "\n")
        .expect("write results");
    println!("wrote {}", path.display());
    write_tables(&dir);
}
