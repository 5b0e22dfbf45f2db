//! The formulas of a page: where they are, and whether they render with KaTeX.

use crate::scan::math_spans;

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
