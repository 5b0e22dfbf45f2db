//! The live widgets (`book/theme/widgets.js`, `book/src/web/`), driven in the browser with fixed
//! inputs: what each shows equals what the chapter's code gives natively, values within
//! [`TOLERANCE`], discrete results exactly. Each check also reports what it measured: the largest
//! difference, the time to the first result and the time of one update.

use headless_chrome::protocol::cdp::{Emulation, Page};
use headless_chrome::Tab;
use serde_json::Value;
use std::path::Path;

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
    /// what else the check measured (chapter 10: characters per second)
    pub note: String,
    pub problems: Vec<String>,
}

/// Checks every widget on the page `page` (its file stem); none for pages without widgets.
pub fn check_widgets(tab: &Tab, page: &str) -> Vec<WidgetReport> {
    match page {
        "01-attention" => vec![ch01_sentence(tab), ch01_scaling(tab)],
        "02-qkv" => vec![ch02_bank_loan(tab)],
        "04-positions" => vec![ch04_encoding(tab)],
        "06-masks" => vec![ch06_masks(tab)],
        "07-vit" => vec![ch07_draw(tab)],
        "08-efficient" => vec![ch08_patterns(tab)],
        "09-capstone" => vec![ch09_reverser(tab)],
        "10-language-models" => vec![ch10_generate(tab)],
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

/// Bytes one page fetched: as served here (uncompressed), and as a server that compresses them
/// with gzip (level 6, as most do) would send them; everything, and the widgets' share (the
/// module, the weights, the chapter scripts, the loader and its styles).
#[derive(Clone, Copy, Debug, Default)]
pub struct PageBytes {
    pub all: u64,
    pub widgets: u64,
    pub all_gzip: u64,
    pub widgets_gzip: u64,
}

/// What the page fetched from `base` (the book in `out`), in [`PageBytes`].
pub fn page_bytes(tab: &Tab, base: &str, out: &Path) -> PageBytes {
    let entries = eval_json(
        tab,
        r#"JSON.stringify([...performance.getEntriesByType('navigation'),
                           ...performance.getEntriesByType('resource')]
            .map(e => ({ name: e.name, size: e.encodedBodySize || 0 })))"#,
    );
    let widget = regex::Regex::new(r"/web/|widgets-[0-9a-f]+\.(js|css)$").unwrap();
    let mut bytes = PageBytes::default();
    for e in entries.as_array().into_iter().flatten() {
        let name = e["name"].as_str().unwrap_or("");
        let size = e["size"].as_u64().unwrap_or(0);
        let path = name.strip_prefix(base).unwrap_or("").split(['?', '#']).next().unwrap_or("");
        let file =
            out.join(if path.is_empty() || path.ends_with('/') { "index.html" } else { path });
        let gzip = std::fs::read(&file).map_or(size, |data| gzip_size(&data));
        bytes.all += size;
        bytes.all_gzip += gzip;
        if widget.is_match(name) {
            bytes.widgets += size;
            bytes.widgets_gzip += gzip;
        }
    }
    bytes
}

/// The size of `data` compressed by gzip at its default level.
fn gzip_size(data: &[u8]) -> u64 {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory").len() as u64
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

/// Runs `body` (a JavaScript function body that may use `el`, the widget's element, and returns
/// an object, or a promise of one) on the widget named `widget`; the object comes back with the
/// widget's `firstMs` added. A widget that is missing or did not go live is a report with that
/// problem instead.
fn drive(tab: &Tab, widget: &str, body: &str) -> Result<(Value, WidgetReport), WidgetReport> {
    let js = r#"(() => {
        const el = document.querySelector('[data-widget="WIDGET"]');
        if (!el || !el.classList.contains('widget-live'))
            return JSON.stringify({ missing: true, error: el && el.dataset.error });
        return Promise.resolve()
            .then(() => (() => { BODY })())
            .then(result => JSON.stringify(Object.assign(result, { firstMs: Number(el.dataset.firstMs) })))
            .catch(e => JSON.stringify({ missing: true, error: 'the check failed in the page: ' + e }));
    })()"#
        .replace("WIDGET", widget)
        .replace("BODY", body);
    let state = eval_json(tab, &js);
    let report = WidgetReport {
        widget: widget.to_string(),
        largest_difference: 0.0,
        first_result_ms: state["firstMs"].as_f64().unwrap_or(f64::NAN),
        update_ms: state["updateMs"].as_f64().unwrap_or(f64::NAN),
        note: String::new(),
        problems: Vec::new(),
    };
    match &state {
        Value::Null => Err(WidgetReport {
            problems: vec!["the check's script did not run (a syntax error?)".into()],
            ..report
        }),
        _ if state["missing"] == true => {
            Err(WidgetReport { problems: vec![format!("not live: {}", state["error"])], ..report })
        }
        _ => Ok((state, report)),
    }
}

/// Drives an editor widget (ch01's sentence, ch02's matrices): reads its result tables as loaded,
/// types `values` into its inputs in order, reads them again, presses its reset button and reads
/// them a third time (`loaded`, `edited`, `restored`, and the number of `inputs`).
fn edit_and_reset(
    tab: &Tab,
    widget: &str,
    values: &[f32],
) -> Result<(Value, WidgetReport), WidgetReport> {
    let js = r#"
        const read = () => Array.from(el.querySelectorAll('table.widget-matrix:not(.widget-inputs) td'))
            .map(td => Number(td.dataset.value));
        const loaded = read();
        const inputs = Array.from(el.querySelectorAll('input'));
        VALUES.forEach((x, k) => { inputs[k].value = String(x); });
        const start = performance.now();
        inputs[0].dispatchEvent(new Event('input'));
        const updateMs = performance.now() - start;
        const edited = read();
        el.querySelector('button').click();
        return { loaded, edited, restored: read(), inputs: inputs.length, updateMs };
    "#
    .replace("VALUES", &serde_json::to_string(values).unwrap());
    drive(tab, widget, &js)
}

/// Chapter 1's sentence: the chapter's sentence as it loads, then four vectors typed in.
fn ch01_sentence(tab: &Tab) -> WidgetReport {
    let typed: [[f32; 3]; 4] =
        [[1.0, 0.0, 0.5], [0.2, 0.9, 0.1], [-0.4, 0.3, 0.8], [1.5, 1.5, 1.5]];
    let (state, mut report) = match edit_and_reset(tab, "ch01-sentence", &typed.concat()) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
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
    let js = r#"
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
            return { stops, updateMs };
        "#;
    let (state, mut report) = match drive(tab, "ch01-scaling", js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let stops = state["stops"].as_array().cloned().unwrap_or_default();
    let widths: Vec<u64> = stops.iter().map(|s| s["d"].as_u64().unwrap_or(0)).collect();
    let expected: Vec<u64> =
        attention_web::ch01::SCALING_WIDTHS.iter().map(|&d| d as u64).collect();
    if widths != expected {
        report.problems.push(format!("the slider's stops are {widths:?}, the code's {expected:?}"));
    }
    for stop in &stops {
        let d = stop["d"].as_u64().unwrap_or(0) as usize;
        let native = attention_web::ch01::scaling(d).expect("the slider's widths are valid");
        let keys = attention_web::ch01::SCALING_KEYS;
        compare(&mut report, &format!("d_k = {d}"), &numbers(&stop["bars"]), &native[..2 * keys]);
    }
    report
}

/// Chapter 2's bank loan: the chapter's matrices as the page loads, then `W_K` made the identity
/// and an embedding changed, then the reset.
fn ch02_bank_loan(tab: &Tab) -> WidgetReport {
    let mut edited = attention_web::ch02::chapter();
    edited[8..12].copy_from_slice(&[1.0, 0.0, 0.0, 1.0]); // W_K = I
    edited[2] = -0.3; // "loan"'s first component
    let (state, mut report) = match edit_and_reset(tab, "ch02-bank-loan", &edited) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let native = |values: &[f32]| attention_web::ch02::bank_loan(values).expect("valid matrices");
    let chapter = native(&attention_web::ch02::chapter());
    compare(&mut report, "the chapter's matrices", &numbers(&state["loaded"]), &chapter);
    compare(&mut report, "W_K = I, loan changed", &numbers(&state["edited"]), &native(&edited));
    compare(&mut report, "after reset", &numbers(&state["restored"]), &chapter);
    if state["inputs"] != attention_web::ch02::INPUTS {
        report.problems.push(format!("{} inputs, the example has 16 numbers", state["inputs"]));
    }
    report
}

/// Chapter 4's table at three settings of width, position and dimension.
fn ch04_encoding(tab: &Tab) -> WidgetReport {
    let settings = [(64usize, 10usize, 0usize), (16, 0, 3), (128, 49, 100)];
    let js = r#"
        const [width, position, dimension] = [el.querySelector('select'),
            ...el.querySelectorAll('input[type=range]')];
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
        return { shown, updateMs };
    "#
    .replace("SETTINGS", &serde_json::to_string(&settings).unwrap());
    let (state, mut report) = match drive(tab, "ch04-encoding", &js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
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
    let js = r#"
        const [real, left, causal, additive] = el.querySelectorAll('input');
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
        return { shown, updateMs };
    "#
    .replace("SETTINGS", &serde_json::to_string(&settings).unwrap());
    let (state, mut report) = match drive(tab, "ch06-masks", &js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let n = attention_web::ch06::LEN;
    for (k, values) in settings.iter().enumerate() {
        let shown = &state["shown"][k];
        let native = attention_web::ch06::mask_builder(values).expect("valid settings");
        let (mask, weights) = native[n..].split_at(n * n);
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

/// Chapter 7's digit: the first test image of each digit picked from the list, then a stroke
/// drawn with pointer events (a vertical bar in column 4, rows 1 to 6).
fn ch07_draw(tab: &Tab) -> WidgetReport {
    let js = r#"
        const example = el.querySelector('select');
        const canvas = el.querySelector('canvas');
        const read = () => ({
            pixels: JSON.parse(el.dataset.pixels),
            predicted: Number(el.querySelector('.widget-stats strong').dataset.value),
            probabilities: Array.from(el.querySelectorAll('.widget-bar-value')).map(b => Number(b.dataset.value)),
            attention: Array.from(el.querySelectorAll('table.widget-patches td')).map(td => Number(td.dataset.value)),
        });
        let updateMs = 0;
        const shown = [];
        for (let d = 0; d < 10; d++) {
            example.value = String(d);
            const start = performance.now();
            example.dispatchEvent(new Event('input'));
            updateMs = Math.max(updateMs, performance.now() - start);
            shown.push(read());
        }
        el.querySelector('button').click();
        const r = canvas.getBoundingClientRect();
        const at = (row, col) => ({ clientX: r.left + (col + 0.5) * r.width / 8,
                                    clientY: r.top + (row + 0.5) * r.height / 8,
                                    pointerId: 1, bubbles: true, buttons: 1 });
        canvas.dispatchEvent(new PointerEvent('pointerdown', at(1, 4)));
        for (let row = 2; row <= 6; row++) canvas.dispatchEvent(new PointerEvent('pointermove', at(row, 4)));
        canvas.dispatchEvent(new PointerEvent('pointerup', at(6, 4)));
        const drawn = read();
        // the chapter's figure's 3 again, for the screenshots
        example.value = '3';
        example.dispatchEvent(new Event('input'));
        return { shown, drawn, updateMs };
    "#;
    let (state, mut report) = match drive(tab, "ch07-draw", js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let dev = dfdx::prelude::Cpu::default();
    let model = ch07_vit::trained::load_model(&dev);
    let examples = attention_web::ch07::test_examples();
    let check = |report: &mut WidgetReport, what: &str, shown: &Value| {
        use dfdx::prelude::*;
        let pixels = numbers(&shown["pixels"]);
        if pixels.len() != 64 {
            report.problems.push(format!("{what}: {} pixels shown: {shown}", pixels.len()));
            return vec![f32::NAN; 64];
        }
        let image = dev.tensor_from_vec(pixels.clone(), (Const::<1>, Const, Const, Const));
        let probabilities =
            model.forward(image.clone(), ch07_vit::Mode::Eval).softmax::<Axis<1>>().as_vec();
        let predicted = support::argmax(&probabilities);
        if shown["predicted"].as_u64() != Some(predicted as u64) {
            report
                .problems
                .push(format!("{what}: shows {}, native {predicted}", shown["predicted"]));
        }
        compare(
            report,
            &format!("{what}: probabilities"),
            &numbers(&shown["probabilities"]),
            &probabilities,
        );
        let attention = model.cls_attention(image).as_vec();
        compare(
            report,
            &format!("{what}: [CLS] attention"),
            &numbers(&shown["attention"]),
            &attention,
        );
        pixels
    };
    let shown = state["shown"].as_array().cloned().unwrap_or_default();
    if shown.len() != 10 {
        report.problems.push(format!("{} test images shown, 10 expected", shown.len()));
    }
    for (d, example) in shown.iter().enumerate() {
        let pixels = check(&mut report, &format!("the first test {d}"), example);
        if pixels[..] != examples[d * 64..(d + 1) * 64] {
            report
                .problems
                .push(format!("the first test {d}: the page's pixels are not the image's"));
        }
    }
    let drawn = check(&mut report, "the drawn bar", &state["drawn"]);
    let on: Vec<usize> = (0..64).filter(|&i| drawn[i] == 1.0).collect();
    if on != [12, 20, 28, 36, 44, 52] {
        report
            .problems
            .push(format!("the stroke turned on pixels {on:?}, not column 4 of rows 1 to 6"));
    }
    report
}

/// Chapter 8's patterns: four patterns and lengths, each mask (read from the canvas' pixels) and
/// count exact and both kernels' outputs within the tolerance; then a BigBird that cannot be
/// drawn, whose message is the chapter's.
fn ch08_patterns(tab: &Tab) -> WidgetReport {
    // kind, n, w, block, window blocks, global, random, seed
    let settings = [
        [4.0f32, 256.0, 8.0, 16.0, 1.0, 1.0, 2.0, 0.0],
        [2.0, 512.0, 8.0, 16.0, 1.0, 1.0, 2.0, 0.0],
        [3.0, 128.0, 5.0, 16.0, 1.0, 1.0, 2.0, 0.0],
        [1.0, 64.0, 8.0, 16.0, 1.0, 1.0, 2.0, 0.0],
        [4.0, 1024.0, 8.0, 64.0, 2.0, 1.0, 3.0, 7.0],
    ];
    let impossible = [4.0f32, 64.0, 8.0, 32.0, 1.0, 1.0, 3.0, 0.0];
    let js = r#"
        const [kind, n, block] = el.querySelectorAll('select');
        const [w, windowBlocks, global, random, seed] = el.querySelectorAll('input');
        const canvas = el.querySelector('canvas');
        const [counts, cost] = el.querySelectorAll('.widget-stats');
        const set = (values) => {
            [kind.value, n.value, w.value, block.value, windowBlocks.value, global.value, random.value, seed.value] =
                values.map(String);
            const start = performance.now();
            kind.dispatchEvent(new Event('input'));
            return performance.now() - start;
        };
        let updateMs = 0;
        const shown = SETTINGS.map((values) => {
            updateMs = Math.max(updateMs, set(values));
            const size = values[1];
            const pixels = canvas.getContext('2d').getImageData(0, 0, size, size).data;
            const mask = [];
            for (let k = 0; k < size * size; k++) mask.push(pixels[k * 4] === 37 ? 1 : 0);
            el.querySelector('button').click();
            return { kept: Number(counts.dataset.kept), mask, dense: JSON.parse(cost.dataset.dense),
                     sparse: JSON.parse(cost.dataset.sparse), denseMs: Number(cost.dataset.denseMs),
                     sparseMs: Number(cost.dataset.sparseMs) };
        });
        set(IMPOSSIBLE);
        const error = el.querySelector('.widget-error').textContent;
        set(SETTINGS[0]); // the chapter's BigBird, for the screenshots
        return { shown, error, updateMs };
    "#
    .replace("SETTINGS", &serde_json::to_string(&settings).unwrap())
    .replace("IMPOSSIBLE", &serde_json::to_string(&impossible).unwrap());
    let (state, mut report) = match drive(tab, "ch08-patterns", &js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let mut times = Vec::new();
    for (k, values) in settings.iter().enumerate() {
        let shown = &state["shown"][k];
        let mask = attention_web::ch08::mask(values).expect("a valid pattern");
        if numbers(&shown["mask"]) != mask {
            report.problems.push(format!("{values:?}: the drawn mask differs from native"));
        }
        let kept = mask.iter().sum::<f32>();
        if shown["kept"].as_f64() != Some(f64::from(kept)) {
            report
                .problems
                .push(format!("{values:?}: counts {} kept, native {kept}", shown["kept"]));
        }
        for (sparse, name) in [(false, "dense"), (true, "sparse")] {
            let native = attention_web::ch08::attend(values, sparse).expect("a valid pattern");
            compare(&mut report, &format!("{values:?}: {name}"), &numbers(&shown[name]), &native);
        }
        times.push(format!(
            "n = {}: dense {} ms, sparse {} ms",
            values[1], shown["denseMs"], shown["sparseMs"]
        ));
    }
    let expected = attention_web::ch08::mask(&impossible).expect_err("too many random blocks");
    if state["error"].as_str() != Some(&expected) {
        report
            .problems
            .push(format!("{impossible:?}: shows {}, native {expected:?}", state["error"]));
    }
    report.note = times.join("; ");
    report
}

/// Chapter 9's reverser: four typed sequences (one of them past the trained lengths), each
/// answer and every layer's and head's cross-attention as the explorer shows it; then a typing
/// mistake, whose message is the module's.
fn ch09_reverser(tab: &Tab) -> WidgetReport {
    let typed = ["3 1 4 1 5 9 2 6", "27182818284", "7 7 7 7", "5"];
    let mistake = "1 2 x";
    let js = r#"
        const input = el.querySelector('input');
        const root = document.getElementById('reversal-explorer');
        const [layer, head] = [root.querySelector('.explorer-layer'), root.querySelector('.explorer-head')];
        const pick = (select, value) => { select.value = String(value); select.dispatchEvent(new Event('change')); };
        let updateMs = 0;
        const type = (text) => {
            input.value = text;
            const start = performance.now();
            input.dispatchEvent(new Event('input'));
            return performance.now() - start;
        };
        const shown = TYPED.map((text) => {
            updateMs = Math.max(updateMs, type(text));
            const maps = [];
            for (let l = 0; l < 2; l++) for (let k = 0; k < 4; k++) {
                pick(layer, l);
                pick(head, k);
                maps.push(Array.from(root.querySelectorAll('table.explorer-map tbody td')).map(td => Number(td.dataset.value)));
            }
            const answer = el.querySelector('.widget-stats strong');
            return { answer: answer ? JSON.parse(answer.dataset.value) : null, maps,
                     selected: root.querySelector('.explorer-sequence').selectedOptions[0].textContent };
        });
        type(MISTAKE);
        const error = (el.querySelector('.widget-error') || {}).textContent || null;
        type(TYPED[0]); // back to the first, for the screenshots
        pick(layer, 1);
        pick(head, 'mean');
        return { shown, error, updateMs };
    "#
    .replace("TYPED", &serde_json::to_string(&typed).unwrap())
    .replace("MISTAKE", &serde_json::to_string(mistake).unwrap());
    let (state, mut report) = match drive(tab, "ch09-reverser", &js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    let dev = dfdx::prelude::Cpu::default();
    let model = ch09_capstone::trained::load_model(&dev);
    for (k, text) in typed.iter().enumerate() {
        let shown = &state["shown"][k];
        let digits = attention_web::ch09::parse(text).expect("valid digits");
        let read = ch09_capstone::attention::cross_attention(&model, &dev, &digits);
        let answer: Vec<u8> = shown["answer"]
            .as_array()
            .map(|a| a.iter().map(|d| d.as_u64().unwrap_or(99) as u8).collect())
            .unwrap_or_default();
        if answer != read.answer {
            report
                .problems
                .push(format!("{text:?}: answered {answer:?}, native {:?}", read.answer));
        }
        if !shown["selected"].as_str().unwrap_or("").starts_with("yours: ") {
            report.problems.push(format!("{text:?}: the explorer shows {}", shown["selected"]));
        }
        for layer in 0..attention_web::ch09::LAYERS {
            for head in 0..attention_web::ch09::HEADS {
                let native: Vec<f32> = read.maps[layer][head].concat();
                let map = &shown["maps"][layer * attention_web::ch09::HEADS + head];
                compare(
                    &mut report,
                    &format!("{text:?}, layer {}, head {}", layer + 1, head + 1),
                    &numbers(map),
                    &native,
                );
            }
        }
    }
    let expected = attention_web::ch09::parse(mistake).expect_err("a mistake");
    if state["error"].as_str() != Some(&expected) {
        report
            .problems
            .push(format!("{mistake:?}: shows {}, the module says {expected:?}", state["error"]));
    }
    report
}

/// Chapter 10's writer at two settings: its text with the KV cache equals the chapter's
/// `generate` natively, character for character, and the page found the text without the cache
/// the same; the speeds of both go in the report.
fn ch10_generate(tab: &Tab) -> WidgetReport {
    // characters, temperature, top-k (0: all), seed, prompt
    let settings = [(200, 0.8, 20, 7, "LAWYER, n."), (120, 1.2, 0, 3, "Love, n.")];
    let js = r#"
        const [prompt, count, topK, seed] = el.querySelectorAll('input[type=text], input[type=number]');
        const temperature = el.querySelector('input[type=range]');
        const stats = el.querySelector('.widget-stats');
        const done = () => new Promise((resolve) => {
            const poll = () => stats.dataset.recomputeMs ? resolve() : setTimeout(poll, 20);
            poll();
        });
        const shown = [];
        let chain = Promise.resolve();
        for (const [n, t, k, s, text] of SETTINGS) {
            chain = chain.then(() => {
                [prompt.value, count.value, temperature.value, topK.value, seed.value] =
                    [text, String(n), String(t), String(k), String(s)];
                el.querySelector('button').click();
                return done();
            }).then(() => shown.push({
                text: el.querySelector('pre').dataset.value, same: stats.dataset.same,
                cachedMs: Number(stats.dataset.cachedMs), recomputeMs: Number(stats.dataset.recomputeMs) }));
        }
        return chain.then(() => ({ shown, updateMs: shown[0].cachedMs }));
    "#
    .replace("SETTINGS", &serde_json::to_string(&settings).unwrap());
    let (state, mut report) = match drive(tab, "ch10-generate", &js) {
        Ok(driven) => driven,
        Err(report) => return report,
    };
    use ch10_language_models::{decode, encode, generate, Recompute, Sampling};
    let model =
        ch10_language_models::char_model::trained::load_model(&dfdx::prelude::Cpu::default());
    let mut rates = Vec::new();
    for (k, &(n, temperature, top_k, seed, prompt)) in settings.iter().enumerate() {
        let shown = &state["shown"][k];
        let sampling = Sampling::Sample { temperature, top_k: (top_k > 0).then_some(top_k), seed };
        let native = decode(&generate(
            &model,
            &encode(prompt).unwrap(),
            n,
            sampling,
            Recompute::NewTokenOnly,
        ));
        if shown["text"].as_str() != Some(&native) {
            report.problems.push(format!("{prompt:?}: wrote {}, native {native:?}", shown["text"]));
        }
        if shown["same"] != "true" {
            report.problems.push(format!(
                "{prompt:?}: with and without the cache the page wrote different texts"
            ));
        }
        let per_second = |ms: &Value| n as f64 * 1000.0 / ms.as_f64().unwrap_or(f64::NAN);
        rates.push(format!(
            "{n} characters: {:.0}/s with the cache, {:.0}/s without",
            per_second(&shown["cachedMs"]),
            per_second(&shown["recomputeMs"])
        ));
    }
    report.note = rates.join("; ");
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
