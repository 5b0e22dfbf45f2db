//! The rendered book in a real browser (Debian's chromium, headless): every page's math is typeset
//! with the bundled KaTeX fonts, diagrams are drawn, images load, the console stays clean and no
//! request leaves 127.0.0.1. A full-page screenshot of every page goes to
//! `target/book-screenshots/<page>.png` (a page taller than 16,000 pixels continues in
//! `<page>-2.png`, ...). On chapter 9's page the attention explorer is driven too (it draws, and
//! picking another sequence or head redraws the map); its screenshot, showing a sequence the model
//! gets wrong, goes to `target/book-screenshots/09-capstone-explorer.png`.
//!
//! "Ask the book" has its own check (`ask`): the model in the page's worker ranks as natively;
//! so has chapter 11's chat (`chat`): the page's replies have the `chat` example's token ids; and
//! chapter 13's Whisper (`hear`): the page's transcripts and word times are the native ones.
//!
//! Ignored by default because it needs chromium:
//! `cargo test -p workspace-checks --test checks browser:: -- --ignored`
//! (install it with `sudo apt-get install chromium`, or point `CHROME` at a Chrome/Chromium binary).

use cdp::{Browser, Tab};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use workspace_tools::workspace_root;

mod absent;
mod ask;
mod cdp;
mod chat;
mod explorer;
mod hear;
mod lanes;
mod models;
mod screenshot;
mod widgets;

use explorer::{check_explorer, explorer_screenshot, EXPLORER_PAGE};
use models::{open, wait_for_state};
use screenshot::screenshots;
use widgets::{
    check_widgets, emulate_phone, page_bytes, widget_screenshots, widget_table, widgets_on,
};

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

/// Chromium, headless, on the profile folder `user_data_dir` (its standard error in
/// `chromium.log` there), with nothing that reaches past this machine: no background networking,
/// component updates, sync or first-run pages.
fn launch(user_data_dir: PathBuf) -> Browser {
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-breakpad",
        "--disable-dev-shm-usage",
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        "--disable-hang-monitor",
        "--disable-popup-blocking",
        "--force-color-profile=srgb",
        "--password-store=basic",
        "--use-mock-keychain",
        "--hide-scrollbars",
        "--mute-audio",
        "--window-size=1280,1000",
    ]
    .map(String::from)
    .to_vec();
    args.push(format!("--user-data-dir={}", user_data_dir.display()));
    let log = user_data_dir.join("chromium.log");
    Browser::launch(&chromium(), &args, &log)
        .unwrap_or_else(|e| panic!("cannot start chromium: {e:#}"))
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
    tab.add_event_listener(Arc::new(move |method: &str, p: &Value| {
        let mut r = sink.lock().unwrap();
        let text = |v: &Value| v.as_str().unwrap_or("").to_string();
        match method {
            "Network.requestWillBeSent" => {
                let url = text(&p["request"]["url"]);
                r.pending.insert(text(&p["requestId"]), url.clone());
                r.requests.push(url);
            }
            "Network.loadingFinished" => {
                r.pending.remove(&text(&p["requestId"]));
            }
            "Network.responseReceived" => {
                let status = p["response"]["status"].as_f64().unwrap_or(0.0);
                if status >= 400.0 {
                    r.failed.push(format!("HTTP {status} for {}", text(&p["response"]["url"])));
                }
            }
            "Network.loadingFailed" => {
                let url = r.pending.remove(&text(&p["requestId"]));
                r.failed.push(format!("{} ({})", url.unwrap_or_default(), text(&p["errorText"])));
            }
            "Runtime.consoleAPICalled" => {
                let kind = p["type"].as_str().unwrap_or("");
                if kind == "error" || kind == "assert" {
                    let args: Vec<String> = p["args"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| match a.get("value") {
                            Some(v) => v.to_string(),
                            None => text(&a["description"]),
                        })
                        .collect();
                    r.errors.push(format!("console.{kind}: {}", args.join(" ")));
                }
            }
            "Log.entryAdded" => {
                let entry = &p["entry"];
                if entry["level"] == "error" {
                    r.errors.push(format!("log: {} {}", text(&entry["text"]), text(&entry["url"])));
                }
            }
            "Runtime.exceptionThrown" => {
                let d = &p["exceptionDetails"];
                let what = text(&d["exception"]["description"]);
                r.errors.push(format!("uncaught exception: {} {what}", text(&d["text"])));
            }
            _ => {}
        }
    }));
    for domain in ["Network", "Log", "Runtime"] {
        tab.call(&format!("{domain}.enable"), json!({}))
            .unwrap_or_else(|e| panic!("{domain}.enable: {e:#}"));
    }
    recorded
}

fn eval_json(tab: &Tab, js: &str) -> Value {
    let result = tab.evaluate(js, true).unwrap_or_else(|e| panic!("evaluating JS failed: {e:#}"));
    let text = result["value"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// Waits until the page, its fonts and its live widgets are done.
fn settle(tab: &Tab) {
    let start = Instant::now();
    loop {
        let state = eval_json(
            tab,
            "document.fonts.ready.then(() => JSON.stringify({
                ready: document.readyState === 'complete',
                pending: Array.from(document.querySelectorAll('[data-widget]'))
                    .filter(w => !w.classList.contains('widget-live') && !w.dataset.error).length,
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
    // the prose: text outside listings and code spans (a listing may hold `$$` as a string)
    prose: (() => {
        const main = document.querySelector('main') || document.body;
        const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {
            acceptNode: n => n.parentElement.closest('pre, code, script, style, annotation')
                ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
        });
        const parts = [];
        while (walker.nextNode()) parts.push(walker.currentNode.data);
        return parts.join(' ');
    })(),
    allText: (document.querySelector('main') || document.body).textContent,
    images: document.images.length,
    broken: Array.from(document.images)
        .filter(i => !(i.complete && i.naturalWidth > 0))
        .map(i => i.getAttribute('src')),
    mermaid: document.querySelectorAll('.diagram').length,
    // the drawing of the page's theme, shown
    mermaidSvg: Array.from(document.querySelectorAll('.diagram svg'))
        .filter(s => s.getBoundingClientRect().width > 0).length,
    katexFonts: Array.from(document.fonts)
        .filter(f => f.family.replace(/"/g, '').startsWith('KaTeX') && f.status === 'loaded').length,
    fontErrors: Array.from(document.fonts)
        .filter(f => f.status === 'error').map(f => f.family),
    width: Math.ceil(document.documentElement.scrollWidth),
    height: Math.ceil(document.documentElement.scrollHeight),
})"#;

#[test]
#[ignore = "needs chromium (sudo apt-get install chromium); run with --ignored"]
fn every_page_renders_offline_in_chromium() {
    let chrome = chromium(); // fail early, with the install hint, before building anything
    eprintln!("using {}", chrome.display());
    let root = workspace_root();
    // the live widgets' module is built by `cargo xtask wasm` (the suite's earlier step), not
    // here: without it every widget would fail with a 404 and no hint why
    let module = root.join("book/src/web/attention_web.wasm");
    assert!(
        module.is_file(),
        "{} is missing: run `cargo xtask wasm` first (`cargo xtask test` does)",
        module.display()
    );
    let out = bookbuild::build(&root).unwrap_or_else(|e| panic!("{e:#}"));
    let pages = bookbuild::pages(&root).unwrap();
    let (base, _server) = bookbuild::serve_in_background(&out).unwrap();
    let shots = root.join("target").join("book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();

    let profile = tempfile::tempdir().unwrap();
    let browser = launch(profile.path().to_path_buf());
    let mut failures = Vec::new();
    let mut measured = Vec::new();
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
        let prose = info["prose"].as_str().unwrap_or("");
        if prose.is_empty() {
            fail("no text outside code was found (the inspection is broken)".into());
        }
        if prose.contains("$$") {
            fail("`$$` is visible in the page's prose (outside listings and code)".into());
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
        if mermaid as usize != page.mermaid || svgs != mermaid {
            fail(format!(
                "{} mermaid blocks in markdown, {mermaid} in the page, {svgs} drawings shown",
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
        for w in widgets_on(&tab).as_array().into_iter().flatten() {
            if w["live"] != true {
                fail(format!("widget {} did not go live: {}", w["name"], w["error"]));
            }
        }
        let reports = check_widgets(&tab, &name);
        for r in &reports {
            for problem in &r.problems {
                fail(format!("widget {}: {problem}", r.widget));
            }
        }
        if !reports.is_empty() {
            measured.push((name.clone(), page_bytes(&tab, &base, &out), reports));
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
        let (widget_shots, layout) = widget_screenshots(&tab, "");
        for (file, png) in widget_shots {
            std::fs::write(shots.join(file), png).unwrap();
        }
        failures.extend(layout.into_iter().map(|p| format!("{name}: {p}")));
        let _ = tab.close();
    }
    // the pages with widgets again, loaded in a phone's viewport
    for (name, _, _) in &measured {
        let tab = browser.new_tab().expect("new tab");
        tab.set_default_timeout(Duration::from_secs(30));
        emulate_phone(&tab);
        let url = format!("{base}{name}.html");
        tab.navigate_to(&url).and_then(|t| t.wait_until_navigated()).expect("phone tab");
        settle(&tab);
        let (widget_shots, layout) = widget_screenshots(&tab, "-phone");
        for (file, png) in widget_shots {
            std::fs::write(shots.join(file), png).unwrap();
        }
        failures.extend(layout.into_iter().map(|p| format!("{name}, phone: {p}")));
        let _ = tab.close();
    }
    let table = widget_table(&measured);
    std::fs::write(shots.join("widgets.md"), &table).unwrap();
    eprintln!("{table}");
    assert!(
        failures.is_empty(),
        "{} problem(s) in the browser:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
