//! "Ask the book" in a real browser: the question box on every page loads all-MiniLM-L6-v2 into
//! the book's WebAssembly module in a worker, and ranks the paragraphs as chapter 12's code does
//! natively: the same five paragraphs for each question, cosines within [`TOLERANCE`]. Then an
//! empty question gets one line, a reload takes the model from the browser's cache, every
//! paragraph's link finds it in its page, and the panel is photographed at desktop and phone width.

use std::time::{Duration, Instant};

use super::cdp::{Browser, Tab};
use attention_web_models::bundle::Bundle;
use attention_web_models::ch12::Asker;
use serde_json::Value;

use super::screenshot::element_screenshot;
use super::widgets::emulate_phone;
use super::{eval_json, open, settle};

/// How far a cosine computed in the browser may be from the native one (the question's
/// embedding is rounded otherwise on WebAssembly's vectors than on the CPU's).
pub const TOLERANCE: f32 = 1e-5;

/// The questions asked, in readers' words.
pub const QUESTIONS: [&str; 5] = [
    "why divide by the square root of d_k?",
    "what does the KV cache save when generating text?",
    "how do I stop a model from looking at padding tokens?",
    "why use several attention heads instead of one?",
    "how does Whisper know when each word was spoken?",
];

/// The published folder (`cargo xtask wasm` fills it when the model is in the cache).
fn published() -> std::path::PathBuf {
    workspace_tools::workspace_root().join("book/src/web/ask")
}

/// The page's bundle, built natively from the published files, as the worker builds it.
fn native_asker() -> Asker {
    let dir = published();
    let list: Value =
        serde_json::from_slice(&std::fs::read(dir.join("files.json")).unwrap_or_else(|e| {
            panic!(
                "{}: {e}: run `cargo xtask models`, then `cargo xtask wasm`",
                dir.join("files.json").display()
            )
        }))
        .unwrap();
    let files: Vec<(String, Vec<u8>)> = list["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = f[0].as_str().unwrap().to_string();
            let bytes = std::fs::read(dir.join(&name)).unwrap();
            assert_eq!(bytes.len() as u64, f[1].as_u64().unwrap(), "{name}'s listed size");
            (name, bytes)
        })
        .collect();
    let named: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    Asker::from_bytes(&Bundle::write(&named)).unwrap_or_else(|e| panic!("{e}"))
}

/// Waits until the element's `data-state` is one of `states`; returns it.
fn wait_for(tab: &Tab, states: &[&str], limit: Duration) -> String {
    super::wait_for_state(tab, "ask-panel", states, limit)
}

/// Types `question` and asks; returns the panel's state and data after the answer.
fn ask(tab: &Tab, question: &str) -> Value {
    let js = r#"(() => {
        const panel = document.getElementById('ask-panel');
        delete panel.dataset.hits;
        panel.querySelector('input').value = QUESTION;
        panel.querySelector('.ask-row button').click();
        return '""';
    })()"#
        .replace("QUESTION", &serde_json::to_string(question).unwrap());
    eval_json(tab, &js);
    let state = wait_for(tab, &["answered", "error"], Duration::from_secs(60));
    let data = eval_json(
        tab,
        "JSON.stringify((p => ({ hits: JSON.parse(p.dataset.hits || 'null'), ms: Number(p.dataset.askMs),
            status: p.querySelector('.ask-status').textContent,
            links: Array.from(p.querySelectorAll('.ask-hits a')).map(a => a.getAttribute('href')) }))
            (document.getElementById('ask-panel')))",
    );
    serde_json::json!({ "state": state, "data": data })
}

/// Opens the panel on `tab` and loads the model; returns the state and the load's time and
/// whether it came from the cache.
fn open_and_load(tab: &Tab) -> (String, Value) {
    eval_json(tab, "document.getElementById('ask-toggle').click(), '\"\"'");
    let state = wait_for(tab, &["idle", "absent", "loaded", "loading"], Duration::from_secs(20));
    if state == "idle" {
        eval_json(
            tab,
            "document.querySelector('#ask-panel .ask-row button:last-child').click(), '\"\"'",
        );
    }
    let state = wait_for(tab, &["loaded", "error", "absent"], Duration::from_secs(180));
    let data = eval_json(
        tab,
        "JSON.stringify((p => ({ ms: Number(p.dataset.loadMs), cached: p.dataset.cached,
            status: p.querySelector('.ask-status').textContent }))(document.getElementById('ask-panel')))",
    );
    (state, data)
}

/// The problems found, and a table of what was measured.
pub fn check_ask(browser: &Browser, base: &str) -> (Vec<String>, String) {
    let mut problems = Vec::new();
    let asker = native_asker();
    let page = format!("{base}introduction.html");
    let tab = open(browser, &page);
    let (state, loaded) = open_and_load(&tab);
    if state != "loaded" {
        problems.push(format!("the model did not load: {state}, {}", loaded["status"]));
        return (problems, String::new());
    }
    let mut table = format!(
        "Measured by `browser::models::asking_the_book_in_chromium_equals_native` on {}, headless \
         chromium, the book served from 127.0.0.1; a question's time in the page (the worker's \
         WebAssembly, SIMD128) and natively (the same code, this CPU's widest path).\n\n\
         | question | page (ms) | native (ms) | same five paragraphs | largest cosine difference |\n\
         |---|---:|---:|---|---:|\n",
        support::machine::describe()
    );
    for question in QUESTIONS {
        let got = ask(&tab, question);
        if got["state"] != "answered" {
            problems.push(format!("{question:?}: {}", got["data"]["status"]));
            continue;
        }
        let points: Vec<f32> = attention_web::text::to_code_points(question).collect();
        let start = Instant::now();
        let native = asker.ask(&points).unwrap();
        let native_ms = start.elapsed().as_secs_f64() * 1e3;
        let shown: Vec<(f64, f64)> = got["data"]["hits"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| (h[0].as_f64().unwrap_or(-1.0), h[1].as_f64().unwrap_or(f64::NAN)))
            .collect();
        let same = shown.len() == native.len() / 2
            && shown.iter().zip(native.chunks(2)).all(|(s, n)| s.0 == f64::from(n[0]));
        let worst = shown
            .iter()
            .zip(native.chunks(2))
            .map(|(s, n)| (s.1 - f64::from(n[1])).abs())
            .fold(0.0f64, f64::max);
        if !same {
            problems.push(format!("{question:?}: the page ranked {shown:?}, native {native:?}"));
        }
        if worst.is_nan() || worst > f64::from(TOLERANCE) {
            problems.push(format!("{question:?}: cosines differ by {worst:e}"));
        }
        let links = got["data"]["links"].as_array().map_or(0, Vec::len);
        if links != shown.len() {
            problems.push(format!("{question:?}: {links} links for {} hits", shown.len()));
        }
        table += &format!(
            "| {question} | {:.1} | {native_ms:.1} | {} | {worst:.1e} |\n",
            got["data"]["ms"].as_f64().unwrap_or(f64::NAN),
            if same { "yes" } else { "no" }
        );
    }
    let empty = ask(&tab, "   ");
    if empty["state"] != "error" || empty["data"]["status"] != "type a question first" {
        problems.push(format!("an empty question: {empty}"));
    }
    // the panel with an answer, at desktop width, then at a phone's
    ask(&tab, QUESTIONS[0]);
    let shots = workspace_tools::workspace_root().join("target/book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("ask.png"), element_screenshot(&tab, "#ask-panel")).unwrap();
    // a later visit: the model from the browser's cache, on a phone's screen
    let phone = browser.new_tab().expect("new tab");
    phone.set_default_timeout(Duration::from_secs(60));
    emulate_phone(&phone);
    phone.navigate_to(&page).and_then(|t| t.wait_until_navigated()).expect("page");
    settle(&phone);
    let (state, on_phone) = open_and_load(&phone);
    if state != "loaded" || on_phone["cached"] != "true" {
        problems.push(format!("a later visit did not load from the cache: {state}, {on_phone}"));
    }
    ask(&phone, QUESTIONS[1]);
    let overflow = eval_json(
        &phone,
        "JSON.stringify(document.getElementById('ask-panel').getBoundingClientRect().right - document.documentElement.clientWidth)",
    );
    if overflow.as_f64().unwrap_or(1.0) > 0.0 {
        problems.push(format!("the panel reaches {overflow} pixels past a phone's screen"));
    }
    std::fs::write(shots.join("ask-phone.png"), element_screenshot(&phone, "#ask-panel")).unwrap();
    // and on another page, at desktop width
    let again = open(browser, &format!("{base}12-real-bert.html"));
    let (state, cached) = open_and_load(&again);
    if state != "loaded" || cached["cached"] != "true" {
        problems.push(format!("a later visit did not load from the cache: {state}, {cached}"));
    }
    problems.extend(unfound_paragraphs(browser, base));
    let list: Value =
        serde_json::from_slice(&std::fs::read(published().join("files.json")).unwrap()).unwrap();
    let bytes: u64 =
        list["files"].as_array().into_iter().flatten().filter_map(|f| f[1].as_u64()).sum();
    table += &format!(
        "\nThe model's files and the index: {:.1} MB, loaded from the server in {} ms, from the \
         browser's cache in {} ms.\n",
        bytes as f64 / 1e6,
        loaded["ms"],
        cached["ms"]
    );
    (problems, table)
}

/// Every paragraph whose words ([`ch12_real_bert::web_index::find_words`]) are not in its
/// page's text as the browser shows it: its link would find nothing.
fn unfound_paragraphs(browser: &Browser, base: &str) -> Vec<String> {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(published().join("book-index.json")).unwrap())
            .unwrap();
    let paragraphs = manifest["paragraphs"].as_array().cloned().unwrap_or_default();
    let find = manifest["find"].as_array().cloned().unwrap_or_default();
    let mut pages: Vec<&str> = paragraphs.iter().filter_map(|p| p["page"].as_str()).collect();
    pages.dedup();
    let mut problems = Vec::new();
    let (mut checked, mut empty) = (0, 0);
    for page in pages {
        let tab = browser.new_tab().expect("new tab");
        let url = format!("{base}{}", page.replace(".md", ".html"));
        tab.navigate_to(&url).and_then(|t| t.wait_until_navigated()).expect("page");
        let text = eval_json(
            &tab,
            "JSON.stringify(document.querySelector('main').innerText.replace(/\\s+/g, ' ').toLowerCase())",
        );
        let text = text.as_str().unwrap_or("");
        for (p, words) in paragraphs.iter().zip(&find) {
            if p["page"] != page {
                continue;
            }
            let words = words.as_str().unwrap_or("");
            if words.is_empty() {
                empty += 1;
                continue;
            }
            checked += 1;
            if !text.contains(&words.to_lowercase()) {
                problems.push(format!("{page}: {words:?} is not in the page's text"));
            }
        }
        let _ = tab.close();
    }
    // a paragraph without such words (one that opens with a formula) links to its page only
    if checked < 500 || empty * 20 > checked + empty {
        problems.push(format!("only {checked} paragraphs' words were checked ({empty} have none)"));
    }
    problems
}
