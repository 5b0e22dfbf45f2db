//! The widgets of chapters 1 to 6, driven with fixed inputs and compared with the chapters' code:
//! ch01's sentence and scaling slider, ch02's bank loan, ch04's table, ch06's mask builder.

use super::super::cdp::Tab;

use super::{compare, drive, edit_and_reset, numbers, WidgetReport};

/// Chapter 1's sentence: the chapter's sentence as it loads, then four vectors typed in.
pub fn ch01_sentence(tab: &Tab) -> WidgetReport {
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
pub fn ch01_scaling(tab: &Tab) -> WidgetReport {
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
pub fn ch02_bank_loan(tab: &Tab) -> WidgetReport {
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
pub fn ch04_encoding(tab: &Tab) -> WidgetReport {
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
pub fn ch06_masks(tab: &Tab) -> WidgetReport {
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
