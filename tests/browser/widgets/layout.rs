//! What a page with widgets weighs, and how its widgets lay out: the bytes it fetched (as served
//! and gzip-compressed), a phone's viewport, and each widget's screenshot with its overflow.

use super::super::cdp::Tab;
use std::path::Path;

use super::super::eval_json;
use super::super::screenshot::{screenshot, set_viewport, Clip};

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

/// Sets the tab's viewport to a phone's, 390 pixels wide; call before navigating, so that the
/// page lays itself out (and hides mdBook's sidebar) as on a phone.
pub fn emulate_phone(tab: &Tab) {
    set_viewport(tab, 390, 844, true);
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
        shots.push((format!("{name}{suffix}.png"), screenshot(tab, Clip::around(x, y, w, h, 8.0))));
    }
    (shots, problems)
}
