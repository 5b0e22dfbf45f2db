//! The rendered book in a real browser (Debian's chromium, headless): every page's math is typeset
//! with the bundled KaTeX fonts, diagrams are drawn, images load, the console stays clean and no
//! request leaves 127.0.0.1. A full-page screenshot of every page goes to
//! `target/book-screenshots/<page>.png` (a page taller than 16,000 pixels continues in
//! `<page>-2.png`, ...). On chapter 9's page the attention explorer is driven too (it draws, and
//! picking another sequence or head redraws the map); its screenshot, showing a sequence the model
//! gets wrong, goes to `target/book-screenshots/09-capstone-explorer.png`.
//!
//! Ignored by default because it needs chromium:
//! `cargo test -p workspace-checks --test browser -- --ignored`
//! (install it with `sudo apt-get install chromium`, or point `CHROME` at a Chrome/Chromium binary).

use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::protocol::cdp::{Emulation, Log, Network, Page, Runtime};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use workspace_checks::workspace_root;

fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("CHROME") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "CHROME={} does not exist. Install chromium with `sudo apt-get install chromium` \
             (Debian/Ubuntu) or point CHROME at a Chrome/Chromium binary.",
            path.display()
        );
        return path;
    }
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"] {
        if PathBuf::from(candidate).is_file() {
            return candidate.into();
        }
    }
    panic!(
        "chromium was not found, so the book cannot be checked in a browser. Install it with \
         `sudo apt-get install chromium` (Debian/Ubuntu), or set CHROME=/path/to/chromium."
    );
}

fn launch(user_data_dir: PathBuf) -> Browser {
    let args: Vec<&OsStr> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--hide-scrollbars",
        "--mute-audio",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions {
        path: Some(chromium()),
        headless: true,
        sandbox: false,
        enable_gpu: false,
        window_size: Some((1280, 1000)),
        user_data_dir: Some(user_data_dir),
        idle_browser_timeout: Duration::from_secs(180),
        args,
        ..LaunchOptions::default()
    };
    Browser::new(options).unwrap_or_else(|e| panic!("cannot start chromium: {e:#}"))
}

/// What the DevTools protocol reported while a page loaded.
#[derive(Default)]
struct Recorded {
    requests: Vec<String>,
    failed: Vec<String>,
    errors: Vec<String>,
    /// Requests sent but neither finished nor failed yet, by request id.
    pending: std::collections::BTreeMap<String, String>,
}

fn record(tab: &Tab) -> Arc<Mutex<Recorded>> {
    let recorded = Arc::new(Mutex::new(Recorded::default()));
    let sink = recorded.clone();
    tab.add_event_listener(Arc::new(move |event: &Event| {
        let mut r = sink.lock().unwrap();
        match event {
            Event::NetworkRequestWillBeSent(e) => {
                let url = e.params.request.url.clone();
                r.pending.insert(format!("{:?}", e.params.request_id), url.clone());
                r.requests.push(url);
            }
            Event::NetworkLoadingFinished(e) => {
                r.pending.remove(&format!("{:?}", e.params.request_id));
            }
            Event::NetworkResponseReceived(e) => {
                let status = e.params.response.status;
                if status >= 400 {
                    r.failed.push(format!("HTTP {status} for {}", e.params.response.url));
                }
            }
            Event::NetworkLoadingFailed(e) => {
                let url = r.pending.remove(&format!("{:?}", e.params.request_id));
                r.failed.push(format!("{} ({})", url.unwrap_or_default(), e.params.error_text));
            }
            Event::RuntimeConsoleAPICalled(e) => {
                let params = serde_json::to_value(&e.params).unwrap_or(Value::Null);
                let kind = params["type"].as_str().unwrap_or("");
                if kind == "error" || kind == "assert" {
                    let args: Vec<String> = e
                        .params
                        .args
                        .iter()
                        .map(|a| match &a.value {
                            Some(v) => v.to_string(),
                            None => a.description.clone().unwrap_or_default(),
                        })
                        .collect();
                    r.errors.push(format!("console.{kind}: {}", args.join(" ")));
                }
            }
            Event::LogEntryAdded(e) => {
                let entry = serde_json::to_value(&e.params.entry).unwrap_or(Value::Null);
                if entry["level"] == "error" {
                    r.errors.push(format!(
                        "log: {} {}",
                        entry["text"].as_str().unwrap_or(""),
                        entry["url"].as_str().unwrap_or("")
                    ));
                }
            }
            Event::RuntimeExceptionThrown(e) => {
                let d = &e.params.exception_details;
                let what =
                    d.exception.as_ref().and_then(|x| x.description.clone()).unwrap_or_default();
                r.errors.push(format!("uncaught exception: {} {what}", d.text));
            }
            _ => {}
        }
    }))
    .expect("listener");
    let enable: Network::Enable = serde_json::from_value(serde_json::json!({})).unwrap();
    tab.call_method(enable).expect("Network.enable");
    tab.call_method(Log::Enable(None)).expect("Log.enable");
    tab.call_method(Runtime::Enable(None)).expect("Runtime.enable");
    recorded
}

fn eval_json(tab: &Tab, js: &str) -> Value {
    let result = tab.evaluate(js, true).unwrap_or_else(|e| panic!("evaluating JS failed: {e:#}"));
    let text = result.value.and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Waits until the page, its fonts and its mermaid diagrams are done.
fn settle(tab: &Tab) {
    let start = Instant::now();
    loop {
        let state = eval_json(
            tab,
            "document.fonts.ready.then(() => JSON.stringify({
                ready: document.readyState === 'complete',
                pending: Array.from(document.querySelectorAll('pre.mermaid'))
                    .filter(p => !p.querySelector('svg')).length,
            }))",
        );
        if state["ready"] == true && state["pending"] == 0 {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            break; // the checks below report what is missing
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let late console errors and network events arrive.
    std::thread::sleep(Duration::from_millis(300));
}

const INSPECT: &str = r#"JSON.stringify({
    // only the page's own formulas: mdbook's "on this page" sidebar copies headings, math included
    katex: (document.querySelector('main') || document.body).querySelectorAll('.katex').length,
    katexErrors: document.querySelectorAll('.katex-error').length,
    text: (document.querySelector('main') || document.body).innerText,
    allText: (document.querySelector('main') || document.body).textContent,
    images: document.images.length,
    broken: Array.from(document.images)
        .filter(i => !(i.complete && i.naturalWidth > 0))
        .map(i => i.getAttribute('src')),
    mermaid: document.querySelectorAll('pre.mermaid').length,
    mermaidSvg: document.querySelectorAll('pre.mermaid svg').length,
    katexFonts: Array.from(document.fonts)
        .filter(f => f.family.replace(/"/g, '').startsWith('KaTeX') && f.status === 'loaded').length,
    fontErrors: Array.from(document.fonts)
        .filter(f => f.status === 'error').map(f => f.family),
    width: Math.ceil(document.documentElement.scrollWidth),
    height: Math.ceil(document.documentElement.scrollHeight),
})"#;

/// The tallest image Chromium captures in one piece; longer pages come in several parts.
const PART_HEIGHT: f64 = 16_000.0;

/// PNGs of the whole page, top to bottom, at most [`PART_HEIGHT`] pixels each: the viewport is
/// stretched to the page's height (up to that limit) first, so the fixed sidebar spans the image.
fn screenshots(tab: &Tab, width: f64, height: f64) -> Vec<Vec<u8>> {
    let metrics: Emulation::SetDeviceMetricsOverride = serde_json::from_value(serde_json::json!({
        "width": width as u32, "height": height.min(PART_HEIGHT) as u32, "deviceScaleFactor": 1,
        "mobile": false,
    }))
    .unwrap();
    tab.call_method(metrics).expect("Emulation.setDeviceMetricsOverride");
    std::thread::sleep(Duration::from_millis(300));
    let parts = (height / PART_HEIGHT).ceil().max(1.0) as usize;
    (0..parts)
        .map(|i| {
            let y = i as f64 * PART_HEIGHT;
            screenshot(
                tab,
                Page::Viewport {
                    x: 0.0,
                    y,
                    width,
                    height: (height - y).min(PART_HEIGHT),
                    scale: 1.0,
                },
            )
        })
        .collect()
}

fn screenshot(tab: &Tab, clip: Page::Viewport) -> Vec<u8> {
    let shot = tab
        .call_method(Page::CaptureScreenshot {
            format: Some(Page::CaptureScreenshotFormatOption::Png),
            quality: None,
            clip: Some(clip),
            from_surface: Some(true),
            capture_beyond_viewport: Some(true),
            optimize_for_speed: None,
        })
        .expect("screenshot");
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(shot.data).expect("base64 PNG")
}

/// The page with chapter 9's attention explorer (`book/src/explorer/`).
const EXPLORER_PAGE: &str = "09-capstone";

/// Drives the explorer: it drew a shaded map for every sequence of its data, and picking another
/// sequence, then another head, redraws it. Leaves it as it found it. Returns what is wrong.
fn check_explorer(tab: &Tab) -> Vec<String> {
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
            const [first, firstHead] = [sequence.value, head.value];
            const before = snapshot();
            const example = data.examples[Number(first)];
            const wantRows = example.answer.length + 1, wantCells = wantRows * example.input.length;
            pick(sequence, sequence.options[sequence.options.length - 1].value);
            const after = snapshot();
            pick(head, '0');
            const oneHead = snapshot();
            pick(sequence, first);
            pick(head, firstHead);
            return JSON.stringify({
                ready: root.classList.contains('explorer-ready'),
                options: sequence.options.length, examples: data.examples.length,
                wantRows, wantCells, before, after,
                headRedraws: oneHead.titles !== after.titles,
                restored: snapshot().titles === before.titles,
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
/// after [`screenshots`], which stretches the viewport over the page.
fn explorer_screenshot(tab: &Tab) -> Option<Vec<u8>> {
    let rect = eval_json(
        tab,
        r#"(() => {
            const root = document.getElementById('reversal-explorer');
            if (!root) return 'null';
            const sequence = root.querySelector('.explorer-sequence');
            sequence.value = sequence.options[sequence.options.length - 1].value;
            sequence.dispatchEvent(new Event('change'));
            const r = root.getBoundingClientRect();
            return JSON.stringify({ x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
        })()"#,
    );
    let (x, y) = (rect["x"].as_f64()?, rect["y"].as_f64()?);
    let (width, height) = (rect["w"].as_f64()?, rect["h"].as_f64()?);
    let margin = 12.0;
    Some(screenshot(
        tab,
        Page::Viewport {
            x: (x - margin).max(0.0),
            y: (y - margin).max(0.0),
            width: width + 2.0 * margin,
            height: height + 2.0 * margin,
            scale: 1.0,
        },
    ))
}

#[test]
#[ignore = "needs chromium (sudo apt-get install chromium); run with --ignored"]
fn every_page_renders_offline_in_chromium() {
    let chrome = chromium(); // fail early, with the install hint, before building anything
    eprintln!("using {}", chrome.display());
    let root = workspace_root();
    let out = bookbuild::build(&root).unwrap_or_else(|e| panic!("{e:#}"));
    let pages = bookbuild::pages(&root).unwrap();
    let (base, _server) = bookbuild::serve_in_background(&out).unwrap();
    let shots = root.join("target").join("book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();

    let profile = tempfile::tempdir().unwrap();
    let browser = launch(profile.path().to_path_buf());
    let mut failures = Vec::new();
    for page in &pages {
        let name = page.html.file_stem().unwrap().to_string_lossy().into_owned();
        let url = format!("{base}{}", page.html.display());
        let tab = browser.new_tab().expect("new tab");
        tab.set_default_timeout(Duration::from_secs(30));
        let recorded = record(&tab);
        if let Err(e) = tab.navigate_to(&url).and_then(|t| t.wait_until_navigated()) {
            let r = recorded.lock().unwrap();
            panic!(
                "{url}: {e:#}\nstill loading: {:#?}\nfailed: {:#?}\nerrors: {:#?}",
                r.pending, r.failed, r.errors
            );
        }
        settle(&tab);
        let info = eval_json(&tab, INSPECT);
        let mut fail = |msg: String| failures.push(format!("{name}: {msg}"));

        let katex = info["katex"].as_u64().unwrap_or(0) as usize;
        if katex != page.math {
            fail(format!("{} formulas in the markdown, {katex} typeset by KaTeX", page.math));
        }
        if info["katexErrors"].as_u64().unwrap_or(0) > 0 {
            fail("KaTeX reported errors (.katex-error)".into());
        }
        if page.math > 0 && info["katexFonts"].as_u64().unwrap_or(0) == 0 {
            fail("has math but no KaTeX font loaded".into());
        }
        if let Some(errors) = info["fontErrors"].as_array().filter(|e| !e.is_empty()) {
            fail(format!("fonts failed to load: {errors:?}"));
        }
        let text = info["text"].as_str().unwrap_or("");
        if text.contains("$$") {
            fail("`$$` is visible in the page text".into());
        }
        for complaint in ["Syntax error in text", "Unsupported markdown"] {
            if info["allText"].as_str().unwrap_or("").contains(complaint) {
                fail(format!("mermaid drew `{complaint}` into a diagram"));
            }
        }
        if let Some(broken) = info["broken"].as_array().filter(|b| !b.is_empty()) {
            fail(format!("images did not load: {broken:?}"));
        }
        let (mermaid, svgs) =
            (info["mermaid"].as_u64().unwrap_or(0), info["mermaidSvg"].as_u64().unwrap_or(0));
        if mermaid as usize != page.mermaid || svgs < mermaid {
            fail(format!(
                "{} mermaid blocks in markdown, {mermaid} in the page, {svgs} drawn",
                page.mermaid
            ));
        }
        {
            let r = recorded.lock().unwrap();
            for request in &r.requests {
                let local = request.starts_with(&base)
                    || request.starts_with("data:")
                    || request.starts_with("blob:");
                if !local {
                    fail(format!("request outside 127.0.0.1: {request}"));
                }
            }
            if r.requests.is_empty() {
                fail("no network requests were recorded (the recorder is broken)".into());
            }
            for f in &r.failed {
                fail(format!("failed request: {f}"));
            }
            for e in &r.errors {
                fail(e.clone());
            }
        }

        if name == EXPLORER_PAGE {
            for problem in check_explorer(&tab) {
                fail(format!("attention explorer: {problem}"));
            }
        }

        let width = info["width"].as_f64().unwrap_or(1280.0).max(1.0);
        let height = info["height"].as_f64().unwrap_or(1000.0).max(1.0);
        for (i, png) in screenshots(&tab, width, height).into_iter().enumerate() {
            let file = if i == 0 { format!("{name}.png") } else { format!("{name}-{}.png", i + 1) };
            std::fs::write(shots.join(file), png).unwrap();
        }
        if name == EXPLORER_PAGE {
            if let Some(png) = explorer_screenshot(&tab) {
                std::fs::write(shots.join(format!("{name}-explorer.png")), png).unwrap();
            }
        }
        let _ = tab.close(true);
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) in the browser:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
