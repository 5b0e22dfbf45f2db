//! Chapter 9's attention explorer, driven in the browser: it draws, and picking another sequence
//! or head redraws the map.

use super::cdp::Tab;

use super::eval_json;
use super::screenshot::{screenshot, Clip};

/// The page with chapter 9's attention explorer (`book/src/explorer/`).
pub const EXPLORER_PAGE: &str = "09-capstone";

/// Drives the explorer: it drew a shaded map for every sequence of its data, and picking another
/// sequence, then another head, redraws it. Leaves it as it found it. Returns what is wrong.
pub fn check_explorer(tab: &Tab) -> Vec<String> {
    let state = eval_json(
        tab,
        r#"(() => {
            const root = document.getElementById('reversal-explorer');
            if (!root) return JSON.stringify({ missing: true });
            const data = JSON.parse(document.getElementById('reversal-data').textContent);
            const cells = () => Array.from(root.querySelectorAll('table.explorer-map tbody td'));
            const snapshot = () => ({
                rows: root.querySelectorAll('table.explorer-map tbody tr').length,
                cells: cells().length,
                shaded: cells().filter(td => td.style.backgroundColor !== '').length,
                titles: cells().map(td => td.title).join('|'),
                output: root.querySelector('.explorer-output').textContent,
            });
            const pick = (select, value) => {
                select.value = value;
                select.dispatchEvent(new Event('change'));
            };
            const sequence = root.querySelector('.explorer-sequence');
            const head = root.querySelector('.explorer-head');
            // the stored sequences (chapter 9's widget may have added one typed in the page)
            const stored = Array.from(sequence.options).filter(o => Number(o.value) < data.examples.length);
            const [shown, firstHead] = [sequence.value, head.value];
            const first = String(data.examples.findIndex(ex => ex.input.length === 6));
            pick(sequence, first);
            const before = snapshot();
            const example = data.examples[Number(first)];
            const wantRows = example.answer.length + 1, wantCells = wantRows * example.input.length;
            pick(sequence, stored[stored.length - 1].value);
            const after = snapshot();
            pick(head, '0');
            const oneHead = snapshot();
            pick(head, firstHead);
            pick(sequence, first);
            const restored = snapshot().titles === before.titles;
            pick(sequence, shown);
            return JSON.stringify({
                ready: root.classList.contains('explorer-ready'),
                options: stored.length, examples: data.examples.length,
                wantRows, wantCells, before, after,
                headRedraws: oneHead.titles !== after.titles,
                restored,
            });
        })()"#,
    );
    let mut problems = Vec::new();
    if state.is_null() || state["missing"] == true {
        return vec!["#reversal-explorer is not on the page".into()];
    }
    if state["ready"] != true {
        problems.push("explorer.js did not finish (no .explorer-ready)".into());
    }
    if state["options"] != state["examples"] || state["options"].as_u64().unwrap_or(0) == 0 {
        problems.push(format!(
            "{} sequences to pick from, {} in the data",
            state["options"], state["examples"]
        ));
    }
    let (before, after) = (&state["before"], &state["after"]);
    if before["cells"].as_u64().unwrap_or(0) == 0 {
        problems.push("the heatmap has no cells".into());
    }
    if before["rows"] != state["wantRows"] || before["cells"] != state["wantCells"] {
        problems.push(format!(
            "{} rows and {} cells drawn, the sequence needs {} and {}",
            before["rows"], before["cells"], state["wantRows"], state["wantCells"]
        ));
    }
    if before["shaded"] != before["cells"] {
        problems.push(format!("{} of {} cells shaded", before["shaded"], before["cells"]));
    }
    if after["titles"] == before["titles"] {
        problems.push("picking another sequence did not redraw the map".into());
    }
    if !after["output"].as_str().unwrap_or("").contains("wrong") {
        problems.push(format!(
            "the last sequence (longer than any in training) is not marked wrong: {}",
            after["output"]
        ));
    }
    if state["headRedraws"] != true {
        problems.push("picking one head instead of the mean did not redraw the map".into());
    }
    if state["restored"] != true {
        problems.push("picking the first sequence again did not draw its map again".into());
    }
    problems
}

/// A PNG of the explorer alone, showing the last sequence (one the model gets wrong); call it
/// after [`screenshots`](super::screenshot::screenshots), which stretches the viewport over the page.
pub fn explorer_screenshot(tab: &Tab) -> Option<Vec<u8>> {
    let rect = eval_json(
        tab,
        r#"(() => {
            const root = document.getElementById('reversal-explorer');
            if (!root) return 'null';
            const sequence = root.querySelector('.explorer-sequence');
            const stored = JSON.parse(document.getElementById('reversal-data').textContent).examples;
            sequence.value = String(stored.length - 1);
            sequence.dispatchEvent(new Event('change'));
            const r = root.getBoundingClientRect();
            return JSON.stringify({ x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
        })()"#,
    );
    let (x, y) = (rect["x"].as_f64()?, rect["y"].as_f64()?);
    let (width, height) = (rect["w"].as_f64()?, rect["h"].as_f64()?);
    Some(screenshot(tab, Clip::around(x, y, width, height, 12.0)))
}
