//! Small URL helpers shared by the source checks, the output checks and the server.

/// Whether `url` is loaded from another host (`https://…`, `//host/…`).
pub(crate) fn is_external(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("//") || lower.contains("://")
}

/// Whether `url` starts with a scheme, so it is not a path relative to the page.
pub(crate) fn has_scheme(url: &str) -> bool {
    // `mailto:`, `data:`, `https://`, ...
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Decodes `%XX` escapes; invalid UTF-8 is replaced.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
