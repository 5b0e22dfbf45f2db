//! The widgets of chapters 7 to 10, driven with fixed inputs and compared with the chapters' code
//! natively: ch07's ViT, ch08's patterns and kernels, ch09's reverser and explorer, ch10's writer.

use super::super::cdp::Tab;
use serde_json::Value;

use super::{compare, drive, numbers, WidgetReport};

/// Chapter 7's digit: the first test image of each digit picked from the list, then a stroke
/// drawn with pointer events (a vertical bar in column 4, rows 1 to 6).
pub fn ch07_draw(tab: &Tab) -> WidgetReport {
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
pub fn ch08_patterns(tab: &Tab) -> WidgetReport {
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
pub fn ch09_reverser(tab: &Tab) -> WidgetReport {
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
pub fn ch10_generate(tab: &Tab) -> WidgetReport {
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
