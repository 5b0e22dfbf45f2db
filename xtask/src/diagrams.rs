//! `cargo xtask diagrams`: draws every ```` ```mermaid ```` block of the book, in each of mermaid's
//! themes the book uses, into `book/src/diagrams/<key>.svg` (see `bookbuild::diagrams`), with the
//! mermaid.js of `tools/bookbuild/diagrams/` in headless chromium. Only missing drawings are
//! drawn; drawings no page uses any more are removed. The book's build puts them into the pages.

use anyhow::{bail, Context, Result};
use bookbuild::diagrams::{key, mermaid_blocks, svg_path, DIAGRAMS, MERMAID, THEMES};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// One drawing to make: its key, mermaid's theme and the diagram's source.
struct Job {
    key: String,
    theme: &'static str,
    source: String,
}

pub fn diagrams(root: &Path) -> Result<()> {
    let mermaid_js = std::fs::read(root.join(MERMAID)).with_context(|| MERMAID.to_string())?;
    let mut wanted: BTreeMap<String, Job> = BTreeMap::new();
    for page in bookbuild::pages(root)? {
        let path = root.join("book/src").join(&page.source);
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        for (_, source) in mermaid_blocks(&text) {
            for theme in THEMES {
                let key = key(&mermaid_js, theme, &source);
                wanted.insert(key.clone(), Job { key, theme, source: source.clone() });
            }
        }
    }
    let missing: Vec<&Job> =
        wanted.values().filter(|j| !svg_path(root, &j.key).is_file()).collect();
    if !missing.is_empty() {
        draw(root, &missing)?;
    }
    let dir = root.join(DIAGRAMS);
    for entry in std::fs::read_dir(&dir).with_context(|| DIAGRAMS.to_string())?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !wanted.contains_key(name.trim_end_matches(".svg")) {
            std::fs::remove_file(entry.path())?;
            println!("diagrams: removed {DIAGRAMS}/{name} (no page draws it any more)");
        }
    }
    println!("diagrams: {} drawings in {DIAGRAMS}, {} drawn now", wanted.len(), missing.len());
    Ok(())
}

/// Draws `jobs` in one headless chromium: a page that loads mermaid.js, renders each diagram and
/// writes its SVG, percent-encoded, into a `<pre>`, which `--dump-dom` prints once the page's
/// virtual time has run out.
fn draw(root: &Path, jobs: &[&Job]) -> Result<()> {
    let chromium = crate::setup::chromium()?;
    let work = root.join("target/diagrams");
    std::fs::create_dir_all(&work)?;
    let list: Vec<serde_json::Value> = jobs
        .iter()
        .map(|j| serde_json::json!({ "key": j.key, "theme": j.theme, "source": j.source }))
        .collect();
    let page = format!(
        r#"<!doctype html><meta charset="utf-8"><body>
<script src="{mermaid}"></script>
<script>
const jobs = {jobs};
const write = (id, text) => {{
  const pre = document.createElement('pre');
  pre.id = id;
  pre.textContent = encodeURIComponent(text);
  document.body.appendChild(pre);
}};
(async () => {{
  for (const job of jobs) {{
    mermaid.initialize({{ startOnLoad: false, theme: job.theme }});
    const {{ svg }} = await mermaid.render('d' + job.key, job.source);
    write('out-' + job.key, svg);
  }}
}})().catch((e) => write('error', String(e)));
</script>"#,
        mermaid = root.join(MERMAID).display(),
        jobs = serde_json::Value::Array(list),
    );
    let html = work.join("draw.html");
    std::fs::write(&html, page)?;
    println!("diagrams: drawing {} with mermaid.js in {chromium}", jobs.len());
    let out = Command::new(&chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"])
        .args(["--virtual-time-budget=60000", "--dump-dom"])
        .arg(format!("file://{}", html.display()))
        .output()
        .with_context(|| format!("running {chromium}"))?;
    let dom = String::from_utf8_lossy(&out.stdout);
    if let Some(error) = pre(&dom, "error") {
        bail!("mermaid failed: {error}");
    }
    for job in jobs {
        let Some(svg) = pre(&dom, &format!("out-{}", job.key)) else {
            bail!(
                "chromium drew no {} diagram for:\n{}\n{}",
                job.theme,
                job.source,
                String::from_utf8_lossy(&out.stderr)
            );
        };
        let path = svg_path(root, &job.key);
        std::fs::create_dir_all(path.parent().expect("a folder"))?;
        std::fs::write(&path, format!("{svg}\n"))?;
        println!("diagrams: wrote {}", path.strip_prefix(root).unwrap_or(&path).display());
    }
    Ok(())
}

/// The decoded text of `<pre id="ID">` in the dumped page.
fn pre(dom: &str, id: &str) -> Option<String> {
    let start = dom.find(&format!("<pre id=\"{id}\">"))? + id.len() + 11;
    let end = start + dom[start..].find("</pre>")?;
    percent_decode(&dom[start..end])
}

/// The text `encodeURIComponent` encoded.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_text_comes_back() {
        assert_eq!(percent_decode("a%3Csvg%3E%20%E2%88%9E").as_deref(), Some("a<svg> ∞"));
        assert_eq!(percent_decode("%4"), None);
        let dom = "<body><pre id=\"out-ab\">x%26y</pre></body>";
        assert_eq!(pre(dom, "out-ab").as_deref(), Some("x&y"));
        assert_eq!(pre(dom, "error"), None);
    }
}
