//! The formulas of a page: where they are, and whether they render with KaTeX.

use mdbook_katex::preprocess::{get_render_tasks, Render};

/// The formulas mdbook-katex will render in `text`: `(byte offset, TeX, display?)`.
pub fn math_spans(text: &str) -> Vec<(usize, &str, bool)> {
    let extra = mdbook_katex::cfg::KatexConfig::default().build_extra_opts();
    let base = text.as_ptr() as usize;
    get_render_tasks(text, "", &extra)
        .into_iter()
        .filter_map(|task| match task {
            Render::Text(_) => None,
            Render::InlineTask(tex) => Some((tex.as_ptr() as usize - base, tex, false)),
            Render::DisplayTask(tex) => Some((tex.as_ptr() as usize - base, tex, true)),
        })
        .collect()
}

/// Reports, through `add(byte offset, message)`, every formula of `text` that KaTeX does not
/// render with `inline_opts` (`$…$`) or `display_opts` (`$$…$$`).
pub(super) fn check_math(
    text: &str,
    inline_opts: &katex::Opts,
    display_opts: &katex::Opts,
    add: &mut impl FnMut(usize, String),
) {
    for (offset, tex, display) in math_spans(text) {
        let opts = if display { display_opts } else { inline_opts };
        if let Err(e) = katex::render_with_opts(tex, opts) {
            let e = e.to_string();
            let e = e.strip_prefix("failed to execute js (detail: ").unwrap_or(&e);
            let e = e.strip_suffix(')').unwrap_or(e);
            add(offset, format!("formula `{}` does not render: {e}", tex.trim()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_spans_are_found() {
        let spans = math_spans("a $x$ b\n\n$$\ny^2\n$$\n\n`$not math$`");
        assert_eq!(spans.len(), 2);
        assert_eq!(spans[0], (3, "x", false));
        assert!(spans[1].2);
    }
}
