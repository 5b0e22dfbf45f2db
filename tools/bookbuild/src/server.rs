//! The local HTTP server that serves the rendered book.
//!
//! A deliberately small static-file server on `std::net`: one thread per connection, one request
//! per connection (`Connection: close`), GET and HEAD only. Closing every connection keeps page
//! loads predictable: a server that parks idle keep-alive connections on a bounded pool (as
//! tiny_http 0.12 does) can leave chromium waiting for a stylesheet until another connection
//! closes. Which file answers a request is decided in `routing`.

mod routing;

pub use routing::content_type;

use crate::build;
use anyhow::{bail, Context, Result};
use routing::{reason, route};
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Builds the book, then serves it on `addr` (e.g. `127.0.0.1:3000`) until the process is
/// stopped. Prints the URL to open.
pub fn serve(root: &Path, addr: &str) -> Result<()> {
    let dir = build(root)?;
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let url = format!("http://{}/", listener.local_addr()?);
    println!("Serving the book from {} at {url} (Ctrl-C to stop)", dir.display());
    accept_loop(listener, dir, Arc::new(AtomicBool::new(false)));
    Ok(())
}

/// A server started by [`serve_in_background`]; it stops when dropped (or with [`Self::stop`]).
pub struct ServerHandle {
    url: String,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The base URL, `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops accepting connections and waits for the accept thread.
    pub fn stop(self) {}
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking `accept`.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Serves the already rendered book in `dir` on 127.0.0.1 with an ephemeral port, on background
/// threads. Returns the base URL (`http://127.0.0.1:<port>/`, ending in `/`) and the handle that
/// keeps the server alive.
pub fn serve_in_background(dir: &Path) -> Result<(String, ServerHandle)> {
    if !dir.join("index.html").is_file() {
        bail!("{} has no index.html; build the book first", dir.display());
    }
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot listen on 127.0.0.1")?;
    let addr = listener.local_addr()?;
    let url = format!("http://{addr}/");
    let stop = Arc::new(AtomicBool::new(false));
    let (dir, flag) = (dir.to_path_buf(), stop.clone());
    let acceptor = std::thread::spawn(move || accept_loop(listener, dir, flag));
    let handle = ServerHandle { url: url.clone(), addr, stop, acceptor: Some(acceptor) };
    Ok((url, handle))
}

fn accept_loop(listener: TcpListener, dir: PathBuf, stop: Arc<AtomicBool>) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let dir = dir.clone();
        std::thread::spawn(move || {
            let _ = handle_connection(stream, &dir);
        });
    }
}

fn handle_connection(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(()); // connected and closed without a request
    }
    // Headers are not needed; read up to the blank line so the client sees a clean close.
    for _ in 0..200 {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let reply = route(method, target, dir);
    if std::env::var_os("BOOKBUILD_DEBUG").is_some() {
        eprintln!("{method} {target} -> {}", reply.status);
    }
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&reply.body)?;
    }
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tempdir;

    #[test]
    fn serves_over_http() {
        let dir = tempdir("http");
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        let (url, handle) = serve_in_background(&dir).unwrap();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'));
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut response = String::new();
        std::io::Read::read_to_string(&mut stream, &mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
        assert!(response.contains("Content-Type: text/html; charset=utf-8\r\n"), "{response}");
        assert!(response.ends_with("\r\n\r\n<p>hi</p>"), "{response}");
        handle.stop();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
