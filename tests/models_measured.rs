//! The committed measurements of the models the pages run (`web-models/measured/`: what the
//! browser check wrote in its last recorded run, `target/book-screenshots/ask.md`, `chat.md` and
//! `hear.md`): each names its machine, every answer was the native one, and the figures chapters
//! 11, 12 and 13 quote are recomputed from the tables here and found in their pages.

use std::fs;
use workspace_tools::workspace_root;

const ASK: &str = "web-models/measured/ask.md";
const CHAT: &str = "web-models/measured/chat.md";
const HEAR: &str = "web-models/measured/hear.md";

/// A committed table's text, its first line checked to name the machine, and its rows' cells.
fn table(path: &str) -> (String, Vec<Vec<String>>) {
    let text = fs::read_to_string(workspace_root().join(path)).expect(path);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("Measured by") && first.contains(" cores ("),
        "{path} must say the machine it was measured on: {first}"
    );
    let rows = text
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && !["| question |", "| message |", "| clip |"].iter().any(|h| l.starts_with(h))
        })
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect();
    (text, rows)
}

/// The smallest and largest of column `at`.
fn range(rows: &[Vec<String>], at: usize) -> (f64, f64) {
    let values: Vec<f64> = rows.iter().map(|r| r[at].parse::<f64>().expect(&r[at])).collect();
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    (min, values.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

fn page(name: &str) -> String {
    fs::read_to_string(workspace_root().join("book/src").join(name))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn asking_the_book_as_measured_is_what_chapter_12_says() {
    let (text, rows) = table(ASK);
    assert_eq!(rows.len(), 5, "five questions");
    for r in &rows {
        assert_eq!(r[3], "yes", "{:?}: the page ranked otherwise than native", r[0]);
        assert!(r[4].parse::<f64>().unwrap() <= 1e-5, "{:?}: cosines differ by {}", r[0], r[4]);
    }
    let ((page_min, page_max), (native_min, native_max)) = (range(&rows, 1), range(&rows, 2));
    let load = text.lines().find(|l| l.starts_with("The model's files")).expect("the load line");
    let ms: Vec<f64> = load
        .split(" in ")
        .skip(1)
        .map(|part| part.split(' ').next().unwrap().parse::<f64>().unwrap())
        .collect();
    let said = format!(
        "a question took {page_min:.0} to {page_max:.0} ms in the page, against {native_min:.0} to \
         {native_max:.0} ms natively, and the model and the index loaded in {:.1} s from the \
         server and {:.1} s from the browser's cache",
        ms[0] / 1e3,
        ms[1] / 1e3
    );
    assert!(page("12-real-bert.md").contains(&said), "chapter 12 should say: {said}");
}

#[test]
fn chatting_as_measured_is_what_chapter_11_says() {
    let (_, rows) = table(CHAT);
    assert_eq!(rows.len(), 4, "three greedy replies and a sampled one");
    for r in &rows {
        assert_eq!(r[5], "yes", "{:?}: the page wrote other tokens than native", r[0]);
    }
    let (page_min, page_max) = range(&rows, 3);
    let ratios: Vec<f64> =
        rows.iter().map(|r| r[3].parse::<f64>().unwrap() / r[4].parse::<f64>().unwrap()).collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let said = format!(
        "the page wrote {page_min:.1} to {page_max:.1} tokens per second, {low:.2} to {high:.2} \
         times the native decode path on one thread"
    );
    assert!(page("11-real-llm.md").contains(&said), "chapter 11 should say: {said}");
}

/// The median of a cell written `median (fastest–slowest)`.
fn median(cell: &str) -> f64 {
    cell.split(' ').next().unwrap().parse().expect(cell)
}

/// The milliseconds of each "in N ms" of `line`.
fn milliseconds(line: &str) -> Vec<f64> {
    line.split(" in ").skip(1).map(|p| p.split(' ').next().unwrap().parse().unwrap()).collect()
}

#[test]
fn hearing_as_measured_is_what_chapter_13_says() {
    let (text, rows) = table(HEAR);
    assert_eq!(rows.len(), 5, "the five clips");
    for r in &rows {
        assert_eq!(r[3], "yes", "clip {}: the page wrote other tokens than native", r[0]);
        let words = r[5].parse::<f64>().expect("every word compared");
        assert!(words <= 0.02 + 1e-9, "clip {}: word times {words} s apart", r[0]);
    }
    let in_page: Vec<f64> = rows.iter().map(|r| median(&r[6])).collect();
    let ratios: Vec<f64> = rows.iter().map(|r| median(&r[6]) / median(&r[7])).collect();
    let lowest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let five = rows.iter().find(|r| r[0] == "0890").expect("clip 0890");
    let load = text.lines().find(|l| l.starts_with("The model's files")).expect("the load line");
    let ms = milliseconds(load);
    let said = format!(
        "a clip took {:.1} to {:.1} s in the page from its samples to its transcript and word \
         times, {:.1} to {:.1} times the native fast path on one thread; clip 0890, {} s of \
         speech, took {:.1} s. The model loaded in {:.1} s from the server and {:.1} s from the \
         browser's cache",
        lowest(&in_page) / 1e3,
        highest(&in_page) / 1e3,
        lowest(&ratios),
        highest(&ratios),
        five[1],
        median(&five[6]) / 1e3,
        ms[0] / 1e3,
        ms[1] / 1e3
    );
    assert!(page("13-real-whisper.md").contains(&said), "chapter 13 should say: {said}");
    // the goal: a 5-second clip in 2 seconds
    let seconds = median(&five[6]) / 1e3;
    let goal = match seconds <= 2.0 {
        true => "a 5-second clip in 2 seconds, about as long as a reader waits on a button, and it is met".to_string(),
        false => format!(
            "a 5-second clip in 2 seconds, about as long as a reader waits on a button, and it is \
             missed, by {:.1} s",
            seconds - 2.0
        ),
    };
    assert!(page("13-real-whisper.md").contains(&goal), "chapter 13 should say: {goal}");
}
