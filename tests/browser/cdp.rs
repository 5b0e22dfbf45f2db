//! A small client of Chromium's DevTools protocol, over the pipe Chromium opens with
//! `--remote-debugging-pipe`: each message is one JSON object ended by a NUL byte, the commands on
//! the browser's file descriptor 3 and its answers and events on 4. Each tab is a target with a
//! session of its own (`Target.attachToTarget` with `flatten`), whose `sessionId` goes with every
//! command and comes back with every event.
//!
//! What the browser check uses and no more: a command and its answer, events to listeners, and
//! a navigation waited for until its network is almost idle (no more than two requests open for
//! half a second, Chromium's `networkAlmostIdle`). No socket is opened and no WebSocket or TLS
//! library is compiled (a DevTools crate with its generated protocol types was the longest
//! crate of the test build).

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a command waits for its answer.
const ANSWER_LIMIT: Duration = Duration::from_secs(300);

/// Called with each event of a tab: its method (`Network.requestWillBeSent`) and parameters.
pub type Listener = Arc<dyn Fn(&str, &Value) + Send + Sync>;

/// What the reader thread and the callers share.
#[derive(Default)]
struct Shared {
    /// The callers waiting for an answer, by the id of their command.
    waiting: Mutex<HashMap<u64, Sender<Value>>>,
    /// Each session's listeners.
    listeners: Mutex<HashMap<String, Vec<Listener>>>,
    /// Why the browser's pipe closed, once it has.
    closed: Mutex<Option<String>>,
}

struct Connection {
    to_browser: Mutex<ChildStdin>,
    next_id: AtomicU64,
    shared: Arc<Shared>,
    /// Chromium's standard error, for the messages of a browser that stopped answering.
    log: std::path::PathBuf,
}

impl Connection {
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Result<Value> {
        self.call_within(session, method, params, ANSWER_LIMIT)
    }

    fn call_within(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        limit: Duration,
    ) -> Result<Value> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (answer_to, answer) = channel();
        self.shared.waiting.lock().unwrap().insert(id, answer_to);
        // the reader marks the pipe closed before it drops the waiting callers: checked after
        // the insert, a caller either sees the mark or is dropped with the others
        if let Some(why) = self.shared.closed.lock().unwrap().clone() {
            bail!("{method}: {why}{}", self.log_tail());
        }
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = session.into();
        }
        let mut bytes = serde_json::to_vec(&message)?;
        bytes.push(0);
        {
            let mut pipe = self.to_browser.lock().unwrap();
            pipe.write_all(&bytes)
                .and_then(|()| pipe.flush())
                .with_context(|| format!("sending {method}{}", self.log_tail()))?;
        }
        let answer = answer.recv_timeout(limit);
        self.shared.waiting.lock().unwrap().remove(&id);
        let answer = answer.map_err(|_| {
            let why = self.shared.closed.lock().unwrap().clone();
            let why = why.unwrap_or_else(|| format!("no answer within {limit:?}"));
            anyhow!("{method}: {why}{}", self.log_tail())
        })?;
        if let Some(error) = answer.get("error") {
            bail!("{method}: {error}");
        }
        Ok(answer.get("result").cloned().unwrap_or(Value::Null))
    }

    /// The last lines Chromium wrote to its standard error, for an error message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(8)..].join("\n");
        if tail.is_empty() {
            String::new()
        } else {
            format!("\nchromium's last messages ({}):\n{tail}", self.log.display())
        }
    }
}

/// Reads the browser's messages until its pipe closes: an answer goes to the caller waiting for
/// it, an event to its session's listeners (on this thread, so a listener must not block).
fn read_messages(from_browser: impl Read, shared: Arc<Shared>) {
    let mut reader = BufReader::new(from_browser);
    let mut message = Vec::new();
    let why = loop {
        message.clear();
        match reader.read_until(0, &mut message) {
            Ok(0) => break "chromium closed its DevTools pipe (it has exited)".to_string(),
            Err(e) => break format!("reading chromium's DevTools pipe: {e}"),
            Ok(_) => {}
        }
        if message.last() == Some(&0) {
            message.pop();
        }
        let Ok(message) = serde_json::from_slice::<Value>(&message) else {
            continue; // not JSON: nothing waits for it
        };
        if let Some(id) = message.get("id").and_then(Value::as_u64) {
            if let Some(caller) = shared.waiting.lock().unwrap().remove(&id) {
                let _ = caller.send(message);
            }
        } else if let Some(method) = message.get("method").and_then(Value::as_str) {
            let session = message.get("sessionId").and_then(Value::as_str).unwrap_or("");
            let listeners = shared.listeners.lock().unwrap().get(session).cloned();
            let params = message.get("params").unwrap_or(&Value::Null);
            for listener in listeners.unwrap_or_default() {
                listener(method, params);
            }
        }
    };
    *shared.closed.lock().unwrap() = Some(why);
    shared.waiting.lock().unwrap().clear();
}

/// A Chromium process driven over its DevTools pipe; killed when dropped.
pub struct Browser {
    connection: Arc<Connection>,
    child: Mutex<Child>,
}

impl Browser {
    /// Starts `program` with `args` and `--remote-debugging-pipe`, its standard error written to
    /// `log`, and waits for its first answer.
    pub fn launch(program: &Path, args: &[String], log: &Path) -> Result<Browser> {
        let stderr = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        // the shell puts the two pipes where Chromium looks for them (its descriptors 3 and 4),
        // then gives the program its place: no unsafe code to arrange descriptors in the child
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>&2"#)
            .arg(program)
            .args(args)
            .arg("--remote-debugging-pipe")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("starting {}", program.display()))?;
        let to_browser = child.stdin.take().expect("piped");
        let from_browser = child.stdout.take().expect("piped");
        let shared = Arc::new(Shared::default());
        let reader = shared.clone();
        std::thread::spawn(move || read_messages(from_browser, reader));
        let connection = Arc::new(Connection {
            to_browser: Mutex::new(to_browser),
            next_id: AtomicU64::new(1),
            shared,
            log: log.to_path_buf(),
        });
        let browser = Browser { connection, child: Mutex::new(child) };
        browser
            .connection
            .call_within(None, "Browser.getVersion", json!({}), Duration::from_secs(60))
            .context("chromium did not answer on its DevTools pipe")?;
        Ok(browser)
    }

    /// A new tab on `about:blank`, attached, with its page's lifecycle events turned on.
    pub fn new_tab(&self) -> Result<Arc<Tab>> {
        let target =
            self.connection.call(None, "Target.createTarget", json!({"url": "about:blank"}))?;
        let target = target["targetId"].as_str().context("Target.createTarget: no targetId")?;
        let attached = self.connection.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )?;
        let session = attached["sessionId"].as_str().context("attachToTarget: no sessionId")?;
        let tab = Arc::new(Tab {
            connection: self.connection.clone(),
            session: session.to_string(),
            target: target.to_string(),
            timeout: Mutex::new(Duration::from_secs(20)),
            almost_idle: Arc::new(Mutex::new(HashSet::new())),
            loader: Mutex::new(None),
        });
        let almost_idle = tab.almost_idle.clone();
        tab.add_event_listener(Arc::new(move |method, params| {
            if method == "Page.lifecycleEvent" && params["name"] == "networkAlmostIdle" {
                if let Some(loader) = params["loaderId"].as_str() {
                    almost_idle.lock().unwrap().insert(loader.to_string());
                }
            }
        }));
        tab.call("Page.enable", json!({}))?;
        tab.call("Page.setLifecycleEventsEnabled", json!({ "enabled": true }))?;
        Ok(tab)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let closed =
            self.connection.call_within(None, "Browser.close", json!({}), Duration::from_secs(5));
        let mut child = self.child.lock().unwrap();
        if closed.is_err() {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
}

/// One tab of a [`Browser`]: a page target and its session.
pub struct Tab {
    connection: Arc<Connection>,
    session: String,
    target: String,
    timeout: Mutex<Duration>,
    /// The navigations (by loader id) whose network has been almost idle.
    almost_idle: Arc<Mutex<HashSet<String>>>,
    /// The last navigation's loader id.
    loader: Mutex<Option<String>>,
}

impl Tab {
    /// Sends `method` with `params` to this tab's page and returns the answer's `result`.
    pub fn call(&self, method: &str, params: Value) -> Result<Value> {
        self.connection.call(Some(&self.session), method, params)
    }

    /// Calls `listener` with every event of this tab, from now on.
    pub fn add_event_listener(&self, listener: Listener) {
        let mut listeners = self.connection.shared.listeners.lock().unwrap();
        listeners.entry(self.session.clone()).or_default().push(listener);
    }

    /// How long [`Tab::wait_until_navigated`] waits.
    pub fn set_default_timeout(&self, timeout: Duration) -> &Self {
        *self.timeout.lock().unwrap() = timeout;
        self
    }

    /// Starts loading `url`; an error where Chromium could not (a refused connection, say).
    pub fn navigate_to(&self, url: &str) -> Result<&Self> {
        let answer = self.call("Page.navigate", json!({ "url": url }))?;
        if let Some(error) = answer["errorText"].as_str().filter(|e| !e.is_empty()) {
            bail!("navigating to {url}: {error}");
        }
        let loader = answer["loaderId"].as_str().context("Page.navigate: no loaderId")?;
        *self.loader.lock().unwrap() = Some(loader.to_string());
        Ok(self)
    }

    /// Waits until the last navigation's network is almost idle, for the tab's timeout.
    pub fn wait_until_navigated(&self) -> Result<&Self> {
        let loader = self.loader.lock().unwrap().clone().context("no navigation to wait for")?;
        let limit = *self.timeout.lock().unwrap();
        let start = Instant::now();
        while !self.almost_idle.lock().unwrap().contains(&loader) {
            if start.elapsed() > limit {
                bail!("the page was still loading after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(self)
    }

    /// Evaluates `expression` in the page (awaiting the promise it returns, if `await_promise`)
    /// and returns the result by value (`Runtime.RemoteObject`: `value` holds it).
    pub fn evaluate(&self, expression: &str, await_promise: bool) -> Result<Value> {
        let answer = self.call(
            "Runtime.evaluate",
            json!({
                "expression": expression,
                "returnByValue": true,
                "awaitPromise": await_promise,
            }),
        )?;
        Ok(answer["result"].clone())
    }

    /// Closes the tab and forgets its listeners.
    pub fn close(&self) -> Result<()> {
        self.connection.shared.listeners.lock().unwrap().remove(&self.session);
        self.connection.call(None, "Target.closeTarget", json!({ "targetId": self.target }))?;
        Ok(())
    }
}
