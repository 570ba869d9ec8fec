//! Just enough of the W3C WebDriver protocol to drive headless Chromium through Debian's
//! `chromedriver`: a session, a page, scripts, real pointer input, window sizes and
//! screenshots. Plain HTTP/1.1 over a local socket, one request a connection.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver process and one browser session in it.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: std::path::PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One HTTP/1.1 request to a server on this machine: its status and body.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, String), String> {
    http_full(port, method, path, headers, body).map(|(status, _, body)| (status, body))
}

/// The same, with the answer's head (status line and headers, as sent).
pub fn http_full(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, String, String), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes())).map_err(|e| e.to_string())?;
    // The head, then as many bytes as it announces (a server may keep the connection open
    // whatever was asked), or all until it closes.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        let length =
            head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse::<usize>().ok());
        match length {
            Some(len) if raw.len() >= end + 4 + len => break,
            None if head.contains("transfer-encoding: chunked") && raw.ends_with(b"0\r\n\r\n") => break,
            _ => {}
        }
    }
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no HTTP answer")?;
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or("no status")?;
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(body) } else { body.to_string() };
    Ok((status, head.to_string(), body))
}

/// One request to chromedriver; the JSON answer's value.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let (_, text) = http(port, method, path, &[("Content-Type", "application/json; charset=utf-8")], &body)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    if let Some(err) = v["value"]["error"].as_str() {
        return Err(format!("{err}: {}", v["value"]["message"].as_str().unwrap_or("")));
    }
    Ok(v["value"].clone())
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

impl Browser {
    /// Starts chromedriver and a headless Chromium of `width` x `height` CSS pixels.
    pub fn start(chromedriver: &Path, chromium: &Path, width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let t = Instant::now();
        while request(port, "GET", "/status", None).map(|v| v["ready"].as_bool() != Some(true)).unwrap_or(true) {
            assert!(t.elapsed() < Duration::from_secs(20), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("tetrarch-webdriver-{}-{}", std::process::id(), port));
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium.display().to_string(), "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let v = request(port, "POST", "/session", Some(&caps)).expect("a browser session");
        let session = v["sessionId"].as_str().expect("a session id").to_string();
        Browser { driver, port, session, profile }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        request(self.port, method, &format!("/session/{}{}", self.session, path), body.as_ref())
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url }))).unwrap();
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page; its result.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    pub fn try_run(&self, script: &str) -> Result<Value, String> {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Waits until `script` gives something that is neither false nor null; that value.
    pub fn wait(&self, script: &str, limit: Duration, what: &str) -> Value {
        let t = Instant::now();
        loop {
            match self.try_run(script) {
                Ok(v) if !v.is_null() && v != Value::Bool(false) => return v,
                _ => {}
            }
            if t.elapsed() >= limit {
                let seen = self.try_run(
                    "return typeof S === 'undefined' || S === null ? 'no state' : JSON.stringify({status: S.status, moves: S.moves.length, \
                     shown: typeof shown === 'undefined' ? null : shown, analysing: typeof analysing === 'undefined' ? null : analysing, \
                     message: document.getElementById('message') && document.getElementById('message').textContent, \
                     analysis: document.getElementById('analysis-line') && document.getElementById('analysis-line').textContent, \
                     dialog: document.getElementById('newgame') && document.getElementById('newgame').open})",
                );
                panic!("waited {limit:?} for {what}; the page: {seen:?}");
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// A real mouse click (pointer down and up) at a point of the viewport.
    pub fn click_at(&self, x: f64, y: f64) {
        self.pointer(&[(x, y)]);
    }

    /// A press at the first point, moves through the others, and a release at the last: a
    /// drag.
    pub fn pointer(&self, points: &[(f64, f64)]) {
        let (x0, y0) = points[0];
        let mut actions = vec![
            json!({"type": "pointerMove", "x": x0.round() as i64, "y": y0.round() as i64, "origin": "viewport"}),
            json!({"type": "pointerDown", "button": 0}),
        ];
        for &(x, y) in &points[1..] {
            actions.push(json!({"type": "pointerMove", "duration": 60, "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport"}));
        }
        actions.push(json!({"type": "pointerUp", "button": 0}));
        let body = json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}]});
        self.call("POST", "/actions", Some(body)).unwrap();
    }

    /// The centre of the first element `selector` finds, in the viewport (scrolled into view,
    /// its scrolling boxes too, only as far as needed); `None` without one.
    pub fn centre(&self, selector: &str) -> Option<(f64, f64)> {
        let v = self.run(
            "const e = document.querySelector(arguments[0]); if (!e) return null; \
             e.scrollIntoView({block: 'nearest', inline: 'nearest'}); const r = e.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2];",
            json!([selector]),
        );
        v.as_array().map(|a| (a[0].as_f64().unwrap(), a[1].as_f64().unwrap()))
    }

    /// Lets the page finish what it put off to after the next paint (the move list's scroll
    /// to its end is one), so that a point read now is still the same point at the click.
    pub fn settle(&self) {
        let script = "const done = arguments[arguments.length - 1]; \
                      requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(() => done(true), 0)), 0));";
        let _ = self.call("POST", "/execute/async", Some(json!({ "script": script, "args": [] })));
    }

    /// Clicks the centre of what `selector` finds, once the page has settled and that centre
    /// stays where it was: the page may still move what it shows after a paint (the move
    /// list scrolls to its end), and a click read before that lands on something else.
    pub fn click(&self, selector: &str) {
        let mut last = None;
        for _ in 0..50 {
            self.settle();
            let now = self.centre(selector).unwrap_or_else(|| panic!("nothing at {selector}"));
            if last == Some(now) {
                self.click_at(now.0, now.1);
                return;
            }
            last = Some(now);
        }
        panic!("{selector} kept moving for 50 tries");
    }

    pub fn resize(&self, width: u32, height: u32) {
        self.call("POST", "/window/rect", Some(json!({"width": width, "height": height}))).unwrap();
    }

    /// The page as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", "/screenshot", None).unwrap();
        base64_decode(v.as_str().unwrap())
    }

    /// The browser console's messages so far.
    pub fn console(&self) -> Vec<String> {
        request(self.port, "POST", &format!("/session/{}/se/log", self.session), Some(&json!({"type": "browser"})))
            .map(|v| {
                v.as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .map(|m| m["message"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Closes the page's window, as a person closes the tab.
    pub fn close_window(&self) {
        let _ = self.call("DELETE", "/window", None);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = acc << 6 | c as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
