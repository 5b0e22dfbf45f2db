//! The book's vector code in the browser: the module's own instruction set (WebAssembly's SIMD128)
//! and its portable path, each compared with the portable path run natively, on chapter 8's fast
//! kernel, chapter 11's quantized products and the vector `exp` (`attention_web::lanes`).

use super::cdp::Tab;
use attention_web_models::lanes::{run, Work};
use ch08_efficient::fast::Isa;

use super::eval_json;

/// How far the browser may be from the native portable path, relative to the value (or absolute
/// below 1): sums of products taken in another order.
pub const TOLERANCE: f32 = 1e-5;

/// Calls the module in the page for every work on every path; the problems found, and a table.
pub fn check_lanes(tab: &Tab) -> (Vec<String>, String) {
    let js = r#"(async () => {
        const { instance } = await WebAssembly.instantiateStreaming(fetch(path_to_root + 'web/attention_web_models.wasm'), {});
        const e = instance.exports;
        const read = () => Array.from(new Float32Array(e.memory.buffer, e.output(), e.output_len()));
        const fail = () => new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.error(), e.error_len()));
        const out = { chosen: e.lanes_chosen() === 0 ? read()[0] : fail(), runs: [] };
        for (const path of [0, 1]) for (const work of [0, 1, 2]) {
            const start = performance.now();
            const ok = e.lanes_run(work, path) === 0;
            out.runs.push({ path, work, ms: performance.now() - start, values: ok ? read() : null, error: ok ? null : fail() });
        }
        return JSON.stringify(out);
    })()"#;
    let got = eval_json(tab, js);
    let mut problems = Vec::new();
    let chosen = got["chosen"].as_f64().map(|i| Isa::ALL[i as usize]);
    if chosen != Some(Isa::Simd128) {
        problems.push(format!("the module's kernels take {:?}, not simd128", got["chosen"]));
    }
    let mut table = String::from(
        "| work | path | largest difference from native | ms |\n|---|---|---:|---:|\n",
    );
    let natives = Work::ALL.map(|w| run(w, Isa::Portable));
    for r in got["runs"].as_array().into_iter().flatten() {
        let (path, work) =
            (r["path"].as_u64().unwrap_or(0) as usize, r["work"].as_u64().unwrap_or(0) as usize);
        let name = format!("{:?} on {}", Work::ALL[work], Isa::ALL[path].name());
        let Some(values) = r["values"].as_array() else {
            problems.push(format!("{name}: {}", r["error"]));
            continue;
        };
        let values: Vec<f32> =
            values.iter().map(|v| v.as_f64().unwrap_or(f64::NAN) as f32).collect();
        let native = &natives[work];
        if values.len() != native.len() {
            problems.push(format!("{name}: {} values, native {}", values.len(), native.len()));
            continue;
        }
        let worst = values
            .iter()
            .zip(native)
            .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
            .fold(0.0f32, |m, d| if d.is_nan() { f32::INFINITY } else { m.max(d) });
        if worst > TOLERANCE {
            problems.push(format!("{name}: differs from native by {worst:e}"));
        }
        table += &format!(
            "| {:?} | {} | {worst:.1e} | {:.1} |\n",
            Work::ALL[work],
            Isa::ALL[path].name(),
            r["ms"].as_f64().unwrap_or(f64::NAN)
        );
    }
    if got["runs"].as_array().map_or(0, Vec::len) != 6 {
        problems.push(format!("the page ran {} of the 6 calls", got["runs"]));
    }
    (problems, table)
}
