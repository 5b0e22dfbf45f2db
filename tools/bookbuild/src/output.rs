//! Checks of the rendered book: nothing is loaded from another host, and no math is left
//! unrendered in the text of a page.

use crate::problem::LineIndex;
use crate::url::is_external;
use crate::walk::all_files;
use crate::Problem;
use anyhow::{Context, Result};
use regex::Regex;
use std::path::Path;
use std::sync::LazyLock;

/// Checks the rendered HTML in `dir`: no `<script>`, `<link>`, `<img>`, … and no CSS `url()` /
/// `@import` loads anything from another host, and no `$$` (unrendered display math) and no TeX
/// command (unrendered inline math, such as a formula in a table included after KaTeX ran) is
/// left in the visible text of any page.
pub fn check_output(dir: &Path) -> Result<Vec<Problem>> {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is)<(script|link|img|iframe|source|audio|video|embed|object)\b[^>]*>")
            .unwrap()
    });
    static ATTR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)\s(src|href|data|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)')"#).unwrap()
    });
    static CSS_URL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(?i)(?:url\(\s*["']?|@import\s+["'])([^"')\s]+)"#).unwrap());
    let mut files = Vec::new();
    all_files(dir, &mut files)?;
    let mut problems = Vec::new();
    for path in files {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "html" && ext != "css" {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let lines = LineIndex::new(&text);
        let file = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
        let mut add = |offset: usize, message: String| {
            problems.push(Problem { file: file.clone(), line: lines.line(offset), message });
        };
        if ext == "css" {
            for cap in CSS_URL.captures_iter(&text) {
                if is_external(&cap[1]) {
                    add(
                        cap.get(0).unwrap().start(),
                        format!("stylesheet loads `{}` from the network", &cap[1]),
                    );
                }
            }
            continue;
        }
        for tag in TAG.captures_iter(&text) {
            let whole = tag.get(0).unwrap();
            for attr in ATTR.captures_iter(whole.as_str()) {
                let url = attr.get(2).or(attr.get(3)).map_or("", |m| m.as_str());
                if is_external(url) {
                    add(whole.start(), format!("<{}> loads `{url}` from the network", &tag[1]));
                }
            }
        }
        let visible = visible_text(&text);
        if let Some(i) = visible.find("$$") {
            let context: String = visible[i.saturating_sub(40)..].chars().take(100).collect();
            add(
                0,
                format!("unrendered display math (`$$`) in the page text: …{}…", context.trim()),
            );
        }
        if let Some(m) = UNRENDERED_TEX.find(&visible) {
            let context: String =
                visible[m.start().saturating_sub(40)..].chars().take(100).collect();
            add(
                0,
                format!(
                    "unrendered math (`{}`) in the page text: …{}…",
                    m.as_str(),
                    context.trim()
                ),
            );
        }
    }
    Ok(problems)
}

/// TeX that KaTeX would have turned into glyphs: a backslash command or the `{,}` of a number.
static UNRENDERED_TEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\\(?:cdot|frac|sqrt|times|mathrm|mathcal|sum|prod|top|varepsilon|alpha|beta|left|right|underbrace|log|exp)\b|\{,\}").unwrap()
});

/// The text a reader sees: tags, scripts, styles, code and KaTeX's hidden TeX annotations removed.
pub fn visible_text(html: &str) -> String {
    static HIDDEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is)<script\b.*?</script>|<style\b.*?</style>|<pre\b.*?</pre>|<code\b.*?</code>|<annotation\b.*?</annotation>|<!--.*?-->")
            .unwrap()
    });
    static TAGS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());
    let text = HIDDEN.replace_all(html, " ");
    TAGS.replace_all(&text, "").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_leaves_out_tags_scripts_and_code() {
        let html = "<p>a <b>b</b></p><script>x = '$$'</script><pre><code>$$</code></pre>\
                    <!-- $$ --><style>p{}</style><p>c <code>$$</code></p>";
        let text = visible_text(html);
        assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert!(!text.contains("$$"));
    }

    #[test]
    fn unrendered_inline_math_is_found_and_katex_annotations_are_not() {
        let table = "<td>$2 \\cdot 50{,}240$</td><td>832</td>";
        assert!(UNRENDERED_TEX.is_match(&visible_text(table)));
        let rendered = "<span class=\"katex\"><math><semantics><mrow><mn>2</mn></mrow>\
                        <annotation encoding=\"application/x-tex\">2 \\cdot 50{,}240</annotation>\
                        </semantics></math><span class=\"katex-html\">2⋅50,240</span></span>";
        assert!(!UNRENDERED_TEX.is_match(&visible_text(rendered)));
        let code = "<p>see <code>a \\cdot b</code></p><pre>$x \\frac{1}{2}$</pre>";
        assert!(!UNRENDERED_TEX.is_match(&visible_text(code)));
        assert!(!UNRENDERED_TEX.is_match("4(64 · 64 + 64) = 16,640"));
    }
}
