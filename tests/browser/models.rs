//! The published models in the pages, in Chromium: the book served once per run, and the checks
//! of "ask the book", chapter 11's chat, chapter 13's Whisper, the vector paths and the book
//! without the models.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cdp::{Browser, Tab};
use workspace_tools::workspace_root;

use super::screenshot::element_screenshot;
use super::widgets::emulate_phone;
use super::{absent, ask, chat, chromium, eval_json, hear, lanes, launch, settle};

/// The book built and served, and chromium on a profile of its own: where the checks of one
/// feature start. The server and the profile live as long as it.
struct Served {
    base: String,
    browser: Browser,
    _server: bookbuild::ServerHandle,
    _profile: tempfile::TempDir,
}

fn served() -> Served {
    served_from(built())
}

/// The book, built once per run: two builds at once into one folder would trip over each other.
fn built() -> &'static std::path::Path {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| bookbuild::build(&workspace_root()).unwrap_or_else(|e| panic!("{e:#}")))
}

/// [`served`], from the built book in `out`.
fn served_from(out: &std::path::Path) -> Served {
    chromium();
    let (base, server) = bookbuild::serve_in_background(out).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let browser = launch(profile.path().to_path_buf());
    Served { base, browser, _server: server, _profile: profile }
}

/// Waits until the `data-state` of the element with id `id` is one of `states` (or `limit` has
/// passed); returns it ("" while there is no such element).
pub fn wait_for_state(tab: &Tab, id: &str, states: &[&str], limit: Duration) -> String {
    let js = format!(
        "JSON.stringify((document.getElementById('{id}') || {{dataset: {{}}}}).dataset.state || '')"
    );
    let start = Instant::now();
    loop {
        let state = eval_json(tab, &js).as_str().unwrap_or("").to_string();
        if states.contains(&state.as_str()) || start.elapsed() > limit {
            return state;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A new tab of `browser` on `url`, loaded and settled.
pub fn open(browser: &Browser, url: &str) -> Arc<Tab> {
    let tab = browser.new_tab().expect("new tab");
    tab.set_default_timeout(Duration::from_secs(60));
    tab.navigate_to(url)
        .and_then(|t| t.wait_until_navigated())
        .unwrap_or_else(|e| panic!("{url}: {e:#}"));
    settle(&tab);
    tab
}

/// A second visit on a phone's screen: a new tab of `browser` at a phone's width on `url`, the
/// model of the box with id `id` loaded again by its button. Returns the tab, the load time the
/// box recorded (ms), and what is wrong: a failed load, or one not from the browser's cache.
pub fn phone_visit(browser: &Browser, url: &str, id: &str) -> (Arc<Tab>, String, Vec<String>) {
    let phone = browser.new_tab().expect("new tab");
    phone.set_default_timeout(Duration::from_secs(60));
    emulate_phone(&phone);
    phone.navigate_to(url).and_then(|t| t.wait_until_navigated()).expect("page");
    settle(&phone);
    let mut problems = Vec::new();
    wait_for_state(&phone, id, &["idle", "absent"], Duration::from_secs(20));
    eval_json(&phone, &format!("document.querySelector('#{id} > button').click(), '\"\"'"));
    let state = wait_for_state(&phone, id, &["loaded", "error"], Duration::from_secs(180));
    let data = |key: &str| {
        eval_json(&phone, &format!("JSON.stringify(document.getElementById('{id}').dataset.{key})"))
    };
    let cached = data("cached");
    if state != "loaded" || cached != "true" {
        problems.push(format!("on a phone, a second visit: {state}, from the cache: {cached}"));
    }
    let load = data("loadMs").as_str().unwrap_or("?").to_string();
    (phone, load, problems)
}

/// The box with id `id` on the phone's screen saved as `target/book-screenshots/<shot>`; a
/// problem where it reaches past the screen's right edge.
pub fn phone_fits(phone: &Tab, id: &str, shot: &str) -> Option<String> {
    let overflow = eval_json(
        phone,
        &format!(
            "JSON.stringify(document.getElementById('{id}').getBoundingClientRect().right - document.documentElement.clientWidth)"
        ),
    );
    let shots = workspace_root().join("target/book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join(shot), element_screenshot(phone, &format!("#{id}"))).unwrap();
    (overflow.as_f64().unwrap_or(1.0) > 0.0)
        .then(|| format!("the box #{id} reaches {overflow} pixels past a phone's screen"))
}

#[test]
#[ignore = "needs chromium and all-MiniLM-L6-v2's files (cargo xtask models, then cargo xtask wasm)"]
fn asking_the_book_in_chromium_equals_native() {
    let book = served();
    let (problems, table) = ask::check_ask(&book.browser, &book.base);
    let shots = workspace_root().join("target").join("book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("ask.md"), &table).unwrap();
    eprintln!("{table}");
    assert!(
        problems.is_empty(),
        "{} problem(s) asking the book:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
#[ignore = "needs chromium (sudo apt-get install chromium) and the module (cargo xtask wasm)"]
fn the_vector_paths_in_chromium_equal_native() {
    let book = served();
    let tab = open(&book.browser, &format!("{}08-efficient.html", book.base));
    let (problems, table) = lanes::check_lanes(&tab);
    eprintln!("{table}");
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
#[ignore = "needs chromium and SmolLM2's file (cargo xtask models, then cargo xtask wasm)"]
fn chatting_in_chromium_equals_native() {
    let book = served();
    let url = format!("{}11-real-llm.html", book.base);
    let tab = open(&book.browser, &url);
    let (mut problems, table) = chat::check_chat(&tab);
    problems.extend(chat::chat_screenshots(&book.browser, &tab, &url));
    let shots = workspace_root().join("target").join("book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("chat.md"), &table).unwrap();
    eprintln!("{table}");
    assert!(
        problems.is_empty(),
        "{} problem(s) chatting:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
#[ignore = "needs chromium and Whisper tiny.en's files (cargo xtask models, then cargo xtask wasm)"]
fn hearing_in_chromium_equals_native() {
    let book = served();
    let url = format!("{}13-real-whisper.html", book.base);
    let tab = open(&book.browser, &url);
    let (mut problems, mut table) = hear::check_hear(&tab);
    let (more, cached) = hear::hear_screenshots(&book.browser, &tab, &url);
    problems.extend(more);
    table += &format!(" and from the browser's cache in {cached}.\n");
    let shots = workspace_root().join("target").join("book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("hear.md"), &table).unwrap();
    eprintln!("{table}");
    assert!(problems.is_empty(), "{} problem(s) hearing:\n{}", problems.len(), problems.join("\n"));
}

#[test]
#[ignore = "needs chromium (sudo apt-get install chromium) and the module (cargo xtask wasm)"]
fn without_the_models_each_box_says_how_to_get_them() {
    let copy = tempfile::tempdir().unwrap();
    absent::copy_without_models(built(), copy.path());
    let book = served_from(copy.path());
    let problems = absent::check_absent(&book.browser, &book.base);
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}
