//! The page's tables are what the committed measurements say, and the measurements meet the
//! chapter's memory claim: the fast kernel's extra memory is its data and tiles, O(n).

use ch08_efficient::measure::Method;
use ch08_efficient::measure::{gpu_tables, limits_tables, measured, pytorch_tables};

fn committed(name: &str) -> String {
    let path = format!("{}/measurements/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn tables_are_current() {
    let results = measured();
    let hint = "regenerate with `cargo run --release -p ch08-efficient --example measurements -- --tables`";
    assert_eq!(committed("time.md"), results.time_table(), "measurements/time.md is stale; {hint}");
    assert_eq!(
        committed("memory.md"),
        results.memory_table(),
        "measurements/memory.md is stale; {hint}"
    );
    assert_eq!(
        committed("pytorch.md"),
        pytorch_tables(),
        "measurements/pytorch.md is stale; {hint}"
    );
    assert_eq!(committed("limits.md"), limits_tables(), "measurements/limits.md is stale; {hint}");
    assert_eq!(committed("gpu.md"), gpu_tables(), "measurements/gpu.md is stale; {hint}");
    let kernels = ch08_efficient::gpu::plan::kernels_table();
    assert_eq!(
        committed("gpu-kernels.md"),
        kernels,
        "measurements/gpu-kernels.md is stale; {hint}"
    );
}

#[test]
fn every_method_was_measured_at_every_length() {
    let results = measured();
    for m in Method::ALL {
        for &n in m.lengths() {
            assert!(
                results.time(m, n).is_some(),
                "{} at n = {n} missing from measurements/results.json",
                m.id()
            );
        }
    }
}
