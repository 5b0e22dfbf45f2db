//! Which answer a request gets: the file it names in the served folder (`index.html` for a
//! folder, `404.html` when there is none), with its `Content-Type`.

use crate::url::percent_decode;
use std::path::{Path, PathBuf};

/// The answer to one request.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) headers: Vec<(&'static str, String)>,
    pub(super) body: Vec<u8>,
}

/// The reason phrase of an HTTP status.
pub(super) fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "",
    }
}

/// The answer to a `method` request for `target` (path, query and fragment) from the files in
/// `dir`.
pub(super) fn route(method: &str, target: &str, dir: &Path) -> Reply {
    let text = |status: u16, msg: &str| Reply {
        status,
        headers: vec![("Content-Type", "text/plain; charset=utf-8".into())],
        body: msg.as_bytes().to_vec(),
    };
    if method != "GET" && method != "HEAD" {
        let mut reply = text(405, "only GET and HEAD");
        reply.headers.push(("Allow", "GET, HEAD".into()));
        return reply;
    }
    let url_path = target.split(['?', '#']).next().unwrap_or("/");
    let Some(mut file) = resolve(dir, url_path) else {
        return text(400, "bad path");
    };
    if file.is_dir() {
        if !url_path.ends_with('/') {
            // Relative links inside the page need the trailing slash.
            return Reply {
                status: 301,
                headers: vec![("Location", format!("{url_path}/"))],
                body: Vec::new(),
            };
        }
        file.push("index.html");
    }
    let (status, file) = if file.is_file() { (200, file) } else { (404, dir.join("404.html")) };
    match std::fs::read(&file) {
        Ok(body) => {
            Reply { status, headers: vec![("Content-Type", content_type(&file).into())], body }
        }
        Err(_) => text(404, "not found"),
    }
}

/// The `Content-Type` for a file name.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Maps a request path onto a file in `dir`; `None` for paths that try to leave it.
fn resolve(dir: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path);
    let mut path = dir.to_path_buf();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\\') || p.contains('\0') => return None,
            p => path.push(p),
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tempdir;

    #[test]
    fn requests_cannot_leave_the_folder() {
        let dir = Path::new("/srv/book");
        assert_eq!(resolve(dir, "/a/b.html"), Some(dir.join("a").join("b.html")));
        assert_eq!(resolve(dir, "/a%20b.html"), Some(dir.join("a b.html")));
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
        assert_eq!(resolve(dir, "/%2e%2e/etc/passwd"), None);
    }

    #[test]
    fn routes() {
        let dir = tempdir("routes");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "home").unwrap();
        std::fs::write(dir.join("404.html"), "lost").unwrap();
        std::fs::write(dir.join("sub/index.html"), "sub").unwrap();
        std::fs::write(dir.join("a.css"), "css").unwrap();
        let get = |t: &str| route("GET", t, &dir);
        assert_eq!(get("/").body, b"home");
        assert_eq!(
            get("/a.css?v=1").headers,
            vec![("Content-Type", "text/css; charset=utf-8".to_string())]
        );
        assert_eq!(get("/sub").status, 301);
        assert_eq!(get("/sub").headers, vec![("Location", "/sub/".to_string())]);
        assert_eq!(get("/sub/").body, b"sub");
        let missing = get("/nope.html");
        assert_eq!((missing.status, missing.body.as_slice()), (404, b"lost".as_slice()));
        assert_eq!(get("/../x").status, 400);
        assert_eq!(route("POST", "/", &dir).status, 405);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type(Path::new("a.woff2")), "font/woff2");
        assert_eq!(content_type(Path::new("a.svg")), "image/svg+xml");
        assert_eq!(content_type(Path::new("x/index.html")), "text/html; charset=utf-8");
    }
}
