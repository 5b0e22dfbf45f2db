//! The live widgets (`book/theme/widgets.js`, `book/src/web/`), driven in the browser with fixed
//! inputs: what each shows equals what the chapter's code gives natively, values within
//! [`TOLERANCE`], discrete results exactly. Each check also reports what it measured: the largest
//! difference, the time to the first result and the time of one update.

use headless_chrome::protocol::cdp::{Emulation, Page};
use headless_chrome::Tab;
use serde_json::Value;

use super::eval_json;
use super::screenshot::screenshot;

/// The most a value the page shows may differ from the native one (the page prints 3 decimals).
pub const TOLERANCE: f32 = 1e-5;

/// What one widget's check found.
pub struct WidgetReport {
    pub widget: String,
    pub largest_difference: f32,
    pub first_result_ms: f64,
    pub update_ms: f64,
    pub problems: Vec<String>,
}

/// Checks every widget on the page `page` (its file stem); none for pages without widgets.
pub fn check_widgets(tab: &Tab, page: &str) -> Vec<WidgetReport> {
    match page {
        "01-attention" => vec![ch01_sentence(tab), ch01_scaling(tab)],
        "04-positions" => vec![ch04_encoding(tab)],
        "06-masks" => vec![ch06_masks(tab)],
        _ => Vec::new(),
    }
}

/// The widgets the page holds, by `data-widget`, with whether each went live.
pub fn widgets_on(tab: &Tab) -> Value {
    eval_json(
        tab,
        r#"JSON.stringify(Array.from(document.querySelectorAll('[data-widget]')).map(el => ({
            name: el.dataset.widget, live: el.classList.contains('widget-live'),
            error: el.dataset.error || null })))"#,
    )
}

/// Bytes the page fetched (its body sizes): everything, and the widgets' share (the module, the
/// chapter scripts, the loader and its styles).
pub fn page_bytes(tab: &Tab) -> (u64, u64) {
    let v = eval_json(
        tab,
        r#"JSON.stringify((() => {
            const entries = [...performance.getEntriesByType('navigation'),
                             ...performance.getEntriesByType('resource')];
            const size = e => e.encodedBodySize || 0;
            const widget = e => /\/web\/|widgets-[0-9a-f]+\.(js|css)$/.test(e.name);
            return { all: entries.reduce((s, e) => s + size(e), 0),
                     widgets: entries.filter(widget).reduce((s, e) => s + size(e), 0) };
        })())"#,
    );
    (v["all"].as_u64().unwrap_or(0), v["widgets"].as_u64().unwrap_or(0))
}

fn numbers(v: &Value) -> Vec<f32> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN) as f32).collect())
        .unwrap_or_default()
}

/// Compares `shown` with `native`, recording the largest difference in `report`.
fn compare(report: &mut WidgetReport, what: &str, shown: &[f32], native: &[f32]) {
    if shown.len() != native.len() {
        report.problems.push(format!(
            "{what}: {} values shown, {} native",
            shown.len(),
            native.len()
        ));
        return;
    }
    // NaN where the native code gives NaN (a row an additive mask leaves empty) is equal
    let diff = shown.iter().zip(native).fold(0.0f32, |m, (a, b)| match (a.is_nan(), b.is_nan()) {
        (true, true) => m,
        (false, false) => m.max((a - b).abs()),
        _ => f32::INFINITY,
    });
    report.largest_difference = report.largest_difference.max(diff);
    if diff > TOLERANCE {
        report.problems.push(format!(
            "{what}: differs from native by {diff:e}\n shown:  {shown:?}\n native: {native:?}"
        ));
    }
}

fn new_report(widget: &str, state: &Value) -> WidgetReport {
    WidgetReport {
        widget: widget.to_string(),
        largest_difference: 0.0,
        first_result_ms: state["firstMs"].as_f64().unwrap_or(f64::NAN),
        update_ms: state["updateMs"].as_f64().unwrap_or(f64::NAN),
        problems: match &state["missing"] {
            Value::Bool(true) => vec![format!("not live: {}", state["error"])],
            _ => Vec::new(),
        },
    }
}

/// Chapter 1's sentence: the chapter's sentence as it loads, then four vectors typed in.
fn ch01_sentence(tab: &Tab) -> WidgetReport {
    let typed: [[f32; 3]; 4] =
        [[1.0, 0.0, 0.5], [0.2, 0.9, 0.1], [-0.4, 0.3, 0.8], [1.5, 1.5, 1.5]];
    let js = r#"(() => {
        const el = document.querySelector('[data-widget="ch01-sentence"]');
        if (!el || !el.classList.contains('widget-live'))
            return JSON.stringify({ missing: true, error: el && el.dataset.error });
        const read = () => Array.from(el.querySelectorAll('table.widget-matrix:not(.widget-inputs) td'))
            .map(td => Number(td.dataset.value));
        const loaded = read();
        const inputs = Array.from(el.querySelectorAll('input'));
        const typed = TYPED;
        inputs.forEach((input, k) => { input.value = String(typed[k]); });
        const start = performance.now();
        inputs[0].dispatchEvent(new Event('input'));
        const updateMs = performance.now() - start;
        const edited = read();
        el.querySelector('button').click();
        return JSON.stringify({ loaded, edited, restored: read(), inputs: inputs.length,
                                firstMs: Number(el.dataset.firstMs), updateMs });
    })()"#
        .replace("TYPED", &serde_json::to_string(&typed.concat()).unwrap());
    let state = eval_json(tab, &js);
    let mut report = new_report("ch01-sentence", &state);
    if !report.problems.is_empty() {
        return report;
    }
    let native = |rows: &[[f32; 3]; 4]| {
        let dev = dfdx::prelude::Cpu::default();
        let att =
            ch01_attention::simple_self_attention(&ch01_attention::weightless::tokens(&dev, rows));
        [att.scores.as_vec(), att.weights.as_vec(), att.context.as_vec()].concat()
    };
    let chapter = native(&ch01_attention::weightless::EMBEDDINGS);
    compare(&mut report, "the chapter's sentence", &numbers(&state["loaded"]), &chapter);
    compare(&mut report, "typed vectors", &numbers(&state["edited"]), &native(&typed));
    compare(&mut report, "after reset", &numbers(&state["restored"]), &chapter);
    if state["inputs"] != 12 {
        report.problems.push(format!("{} inputs, 4 words of 3 numbers need 12", state["inputs"]));
    }
    report
}

/// Chapter 1's scaling slider, at every stop.
fn ch01_scaling(tab: &Tab) -> WidgetReport {
    let state = eval_json(
        tab,
        r#"(() => {
            const el = document.querySelector('[data-widget="ch01-scaling"]');
            if (!el || !el.classList.contains('widget-live'))
                return JSON.stringify({ missing: true, error: el && el.dataset.error });
            const slider = el.querySelector('input[type=range]');
            const first = slider.value;
            const stops = [];
            let updateMs = 0;
            for (let i = Number(slider.min); i <= Number(slider.max); i++) {
                slider.value = String(i);
                const start = performance.now();
                slider.dispatchEvent(new Event('input'));
                updateMs = Math.max(updateMs, performance.now() - start);
                stops.push({ d: Number(el.querySelector('label strong').textContent),
                             bars: Array.from(el.querySelectorAll('.widget-bar-value'))
                                 .map(b => Number(b.dataset.value)) });
            }
            slider.value = first;
            slider.dispatchEvent(new Event('input'));
            return JSON.stringify({ stops, firstMs: Number(el.dataset.firstMs), updateMs });
        })()"#,
    );
    let mut report = new_report("ch01-scaling", &state);
    if !report.problems.is_empty() {
        return report;
    }
    let stops = state["stops"].as_array().cloned().unwrap_or_default();
    let widths: Vec<u64> = stops.iter().map(|s| s["d"].as_u64().unwrap_or(0)).collect();
    let expected: Vec<u64> =
        attention_web::ch01::SCALING_WIDTHS.iter().map(|&d| d as u64).collect();
    if widths != expected {
        report.problems.push(format!("the slider's stops are {widths:?}, the code's {expected:?}"));
    }
    for stop in &stops {
        let d = stop["d"].as_u64().unwrap_or(0) as usize;
        let Ok(native) = attention_web::ch01::scaling(d) else { continue };
        let keys = attention_web::ch01::SCALING_KEYS;
        compare(&mut report, &format!("d_k = {d}"), &numbers(&stop["bars"]), &native[..2 * keys]);
    }
    report
}

/// Chapter 4's table at three settings of width, position and dimension.
fn ch04_encoding(tab: &Tab) -> WidgetReport {
    let settings = [(64usize, 10usize, 0usize), (16, 0, 3), (128, 49, 100)];
    let js = r#"(() => {
        const el = document.querySelector('[data-widget="ch04-encoding"]');
        if (!el || !el.classList.contains('widget-live'))
            return JSON.stringify({ missing: true, error: el && el.dataset.error });
        const [width, position, dimension] = [el.querySelector('select'),
            ...el.querySelectorAll('input[type=range]')];
        const firstMs = Number(el.dataset.firstMs);
        let updateMs = 0;
        const shown = SETTINGS.map(([d, p, i]) => {
            width.value = String(d);
            width.dispatchEvent(new Event('input'));
            position.value = String(p);
            dimension.value = String(i);
            const start = performance.now();
            dimension.dispatchEvent(new Event('input'));
            updateMs = Math.max(updateMs, performance.now() - start);
            const row = el.querySelector('.widget-stats');
            return { row: JSON.parse(row.dataset.values), dots: JSON.parse(row.dataset.dots),
                     value: Number(el.querySelector('.widget-value').dataset.value) };
        });
        // back to the page's starting view, for the screenshots
        [width.value, position.value, dimension.value] = ['64', '10', '0'];
        width.dispatchEvent(new Event('input'));
        return JSON.stringify({ shown, firstMs, updateMs });
    })()"#
        .replace("SETTINGS", &serde_json::to_string(&settings).unwrap());
    let state = eval_json(tab, &js);
    let mut report = new_report("ch04-encoding", &state);
    if !report.problems.is_empty() {
        return report;
    }
    let positions = attention_web::ch04::POSITIONS;
    for (k, &(d, p, i)) in settings.iter().enumerate() {
        let shown = &state["shown"][k];
        let table = ch04_positions::sinusoidal_table(positions, d);
        let row = &table[p * d..(p + 1) * d];
        let dots: Vec<f32> =
            (0..positions).map(|q| ch04_positions::position_dot(&table, d, p, q)).collect();
        let what = format!("d_model = {d}, position {p}");
        compare(&mut report, &format!("{what}: PE(p)"), &numbers(&shown["row"]), row);
        compare(&mut report, &format!("{what}: PE(p)·PE(q)"), &numbers(&shown["dots"]), &dots);
        let value = shown["value"].as_f64().unwrap_or(f64::NAN) as f32;
        compare(&mut report, &format!("{what}: PE(p, {i})"), &[value], &[row[i]]);
    }
    report
}

/// Chapter 6's mask builder at five settings: the chapter's left-padded example with the fill and
/// with an additive mask, right padding without the causal mask, an all-padding sequence, and no
/// padding.
fn ch06_masks(tab: &Tab) -> WidgetReport {
    // real tokens, padding on the left, causal, additive −∞
    let settings = [
        [4.0f32, 1.0, 1.0, 0.0],
        [4.0, 1.0, 1.0, 1.0],
        [3.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [6.0, 0.0, 1.0, 1.0],
    ];
    let js = r#"(() => {
        const el = document.querySelector('[data-widget="ch06-masks"]');
        if (!el || !el.classList.contains('widget-live'))
            return JSON.stringify({ missing: true, error: el && el.dataset.error });
        const [real, left, causal, additive] = el.querySelectorAll('input');
        const firstMs = Number(el.dataset.firstMs);
        let updateMs = 0;
        const shown = SETTINGS.map(([n, l, c, a]) => {
            real.value = String(n);
            [left.checked, causal.checked, additive.checked] = [l === 1, c === 1, a === 1];
            const start = performance.now();
            real.dispatchEvent(new Event('input'));
            updateMs = Math.max(updateMs, performance.now() - start);
            const [mask, weights] = Array.from(el.querySelectorAll('table.widget-matrix'))
                .map(t => Array.from(t.querySelectorAll('td')).map(td => Number(td.dataset.value)));
            return { mask, weights, empty: el.querySelectorAll('.widget-stats')[1].textContent };
        });
        // the chapter's example for the screenshots: left padding, causal, the -1e9 fill
        real.value = '4';
        [left.checked, causal.checked, additive.checked] = [true, true, false];
        real.dispatchEvent(new Event('input'));
        return JSON.stringify({ shown, firstMs, updateMs });
    })()"#
        .replace("SETTINGS", &serde_json::to_string(&settings).unwrap());
    let state = eval_json(tab, &js);
    let mut report = new_report("ch06-masks", &state);
    if !report.problems.is_empty() {
        return report;
    }
    let n = attention_web::ch06::LEN;
    for (k, values) in settings.iter().enumerate() {
        let shown = &state["shown"][k];
        let Ok(native) = attention_web::ch06::mask_builder(values) else { continue };
        let (mask, weights) = native.split_at(n * n);
        if numbers(&shown["mask"]) != mask {
            report.problems.push(format!("settings {values:?}: the mask differs from native"));
        }
        compare(
            &mut report,
            &format!("settings {values:?}: weights"),
            &numbers(&shown["weights"]),
            weights,
        );
        let empty_rows = mask.chunks(n).any(|row| row.iter().all(|&m| m == 0.0));
        let says_empty = shown["empty"].as_str().unwrap_or("").starts_with("queries with nothing");
        if empty_rows != says_empty {
            report.problems.push(format!("settings {values:?}: says {}", shown["empty"]));
        }
    }
    report
}

/// Sets the tab's viewport to a phone's, 390 pixels wide; call before navigating, so that the
/// page lays itself out (and hides mdBook's sidebar) as on a phone.
pub fn emulate_phone(tab: &Tab) {
    let metrics: Emulation::SetDeviceMetricsOverride = serde_json::from_value(serde_json::json!({
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true,
    }))
    .unwrap();
    tab.call_method(metrics).expect("Emulation.setDeviceMetricsOverride");
}

/// PNGs of every widget on the page as laid out now, named `<widget><suffix>.png`, and what is
/// wrong with the layout: a widget wider than the page, or whose content overflows it.
pub fn widget_screenshots(tab: &Tab, suffix: &str) -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let rects = eval_json(
        tab,
        r#"JSON.stringify(Array.from(document.querySelectorAll('[data-widget]')).map(el => {
            const r = el.getBoundingClientRect();
            return { name: el.dataset.widget, x: r.left + scrollX, y: r.top + scrollY,
                     w: r.width, h: r.height, overflow: el.scrollWidth - el.clientWidth,
                     page: document.documentElement.clientWidth };
        }))"#,
    );
    let (mut shots, mut problems) = (Vec::new(), Vec::new());
    for r in rects.as_array().cloned().unwrap_or_default() {
        let name = r["name"].as_str().unwrap_or("widget");
        let (Some(x), Some(y), Some(w), Some(h)) =
            (r["x"].as_f64(), r["y"].as_f64(), r["w"].as_f64(), r["h"].as_f64())
        else {
            continue;
        };
        let page = r["page"].as_f64().unwrap_or(0.0);
        if x + w > page + 1.0 || r["overflow"].as_f64().unwrap_or(0.0) > 1.0 {
            problems.push(format!(
                "{name}{suffix}: {w:.0} pixels wide at x = {x:.0} on a page of {page:.0}, content {} pixels wider",
                r["overflow"]
            ));
        }
        let margin = 8.0;
        let clip = Page::Viewport {
            x: (x - margin).max(0.0),
            y: (y - margin).max(0.0),
            width: w + 2.0 * margin,
            height: h + 2.0 * margin,
            scale: 1.0,
        };
        shots.push((format!("{name}{suffix}.png"), screenshot(tab, clip)));
    }
    (shots, problems)
}
