//! The live widgets (`book/theme/widgets.js`, `book/src/web/`), driven in the browser with fixed
//! inputs: what each shows equals what the chapter's code gives natively, values within
//! [`TOLERANCE`], discrete results exactly. Each check also reports what it measured: the largest
//! difference, the time to the first result and the time of one update.

use super::cdp::Tab;
use serde_json::Value;

use super::eval_json;

mod early;
mod layout;
mod trained;

use early::{ch01_scaling, ch01_sentence, ch02_bank_loan, ch04_encoding, ch06_masks};
pub use layout::{emulate_phone, page_bytes, widget_screenshots, PageBytes};
use trained::{ch07_draw, ch08_patterns, ch09_reverser, ch10_generate};

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

/// What the widget checks measured, as a markdown table: per page the bytes fetched (all, and the
/// widgets' share; as served here, and gzip-compressed), per widget the time to its first result
/// after the page started loading, one update, and the largest difference from native.
pub fn widget_table(measured: &[(String, PageBytes, Vec<WidgetReport>)]) -> String {
    let mb = |b: u64| format!("{:.2} MB", b as f64 / 1e6);
    let mut out = format!(
        "Measured by `browser::every_page_renders_offline_in_chromium` on {}, headless chromium, \
         the book served from 127.0.0.1 uncompressed; \"gzip\" is what a server compressing \
         with gzip would send.\n\n",
        support::machine::describe()
    );
    out.push_str(
        "| page | page bytes | gzip | widgets' bytes | gzip | widget | first result | one update | largest difference from native | also measured |\n|---|---:|---:|---:|---:|---|---:|---:|---:|---|\n",
    );
    for (page, bytes, reports) in measured {
        for r in reports {
            out += &format!(
                "| {page} | {} | {} | {} | {} | {} | {:.0} ms | {:.2} ms | {:.1e} | {} |\n",
                mb(bytes.all),
                mb(bytes.all_gzip),
                mb(bytes.widgets),
                mb(bytes.widgets_gzip),
                r.widget,
                r.first_result_ms,
                r.update_ms,
                r.largest_difference,
                r.note
            );
        }
    }
    out
}
