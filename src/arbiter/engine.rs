//! An engine process behind pipes, as the arbiter sees it: lines in, lines out, every wait
//! bounded, and the process killed when it is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How an engine is started and set up.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    /// `setoption` pairs sent after `usiok`.
    pub options: Vec<(String, String)>,
    /// The option that selects the variant (`USI_Variant` for tetrarch, `UCI_Variant` for
    /// Fairy-Stockfish).
    pub variant_option: String,
    /// The letters this engine expects in `go` for each seat, when they are not the variant's
    /// own (Fairy-Stockfish 11 in USI mode reads `btime` as gote's clock: `go-seats=wb`).
    pub go_seats: Option<String>,
    /// A fixed `go` line for this engine instead of the match's clock (`"go=depth 1"`): the
    /// engine is then off the clock and bounded only by the hang limit. For handicap matches.
    pub go: Option<String>,
}

impl EngineSpec {
    /// Parses `name=N cmd=C [arg=A]... [option.K=V]... [variant-option=O]`. Double quotes
    /// group a part that holds blanks: `"option.Move Overhead=100"`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            options: Vec::new(),
            variant_option: "USI_Variant".into(),
            go_seats: None,
            go: None,
        };
        for part in split_quoted(text)? {
            let part = part.as_str();
            let (k, v) = part.split_once('=').ok_or_else(|| format!("engine: '{}' is not key=value", part))?;
            match k {
                "name" => spec.name = v.to_string(),
                "cmd" => spec.cmd = v.to_string(),
                "arg" => spec.args.push(v.to_string()),
                "variant-option" => spec.variant_option = v.to_string(),
                "go-seats" => spec.go_seats = Some(v.to_string()),
                "go" => spec.go = Some(format!("go {}", v.trim())),
                _ => match k.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => spec.options.push((o.to_string(), v.to_string())),
                    _ => return Err(format!("engine: unknown key '{}'", k)),
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err("engine: cmd=... is required".into());
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.cmd.clone());
        }
        Ok(spec)
    }
}

/// Splits at blanks outside double quotes; the quotes are removed.
fn split_quoted(text: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    parts.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("engine: unbalanced double quote".into());
    }
    if any {
        parts.push(cur);
    }
    Ok(parts)
}

/// Every engine child alive, so that Ctrl-C can kill them all.
fn registry() -> &'static Mutex<Vec<Arc<Mutex<Child>>>> {
    static R: OnceLock<Mutex<Vec<Arc<Mutex<Child>>>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

/// Kills every engine process started by this arbiter.
pub fn kill_all() {
    let list = match registry().lock() {
        Ok(l) => l,
        Err(p) => p.into_inner(),
    };
    for c in list.iter() {
        if let Ok(mut c) = c.lock() {
            let _ = c.kill();
        }
    }
}

/// Why an engine could not give what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Its output closed or writing to it failed: it crashed or exited.
    Died,
    /// It did not answer in time.
    Timeout,
}

pub struct EngineProc {
    pub spec: EngineSpec,
    child: Arc<Mutex<Child>>,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set once the process misbehaved badly enough that it must not play another game.
    pub spoiled: bool,
}

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

impl EngineProc {
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProc, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {}", spec.cmd, e))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("engine-{}", spec.name))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                                // Skip the rest of an overlong line.
                                let mut sink = Vec::new();
                                if r.read_until(b'\n', &mut sink).is_err() {
                                    return;
                                }
                            }
                            let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(line).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {}", e))?;
        let child = Arc::new(Mutex::new(child));
        if let Ok(mut r) = registry().lock() {
            r.retain(|c| c.lock().map(|mut c| matches!(c.try_wait(), Ok(None))).unwrap_or(false));
            r.push(Arc::clone(&child));
        }
        Ok(EngineProc { spec: spec.clone(), child, stdin, lines: rx, spoiled: false })
    }

    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} << {}", self.spec.name, line);
        let stdin = self.stdin.as_mut().ok_or(Fault::Died)?;
        let r = stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush());
        r.map_err(|_| {
            self.spoiled = true;
            Fault::Died
        })
    }

    /// Waits until `deadline` for a line that `pred` accepts; other lines are skipped.
    pub fn wait_for(&mut self, deadline: Instant, mut pred: impl FnMut(&str) -> bool) -> Result<String, Fault> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    log::debug!("{} >> {}", self.spec.name, line);
                    if pred(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.spoiled = true;
                    return Err(Fault::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.spoiled = true;
                    return Err(Fault::Died);
                }
            }
        }
    }

    /// The next line, if one comes before `deadline` (`None`: not yet; the engine is not held
    /// to have failed).
    pub fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, Fault> {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                log::debug!("{} >> {}", self.spec.name, line);
                Ok(Some(line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                self.spoiled = true;
                Err(Fault::Died)
            }
        }
    }

    /// Forgets lines that arrived unasked (late `info` lines, say).
    pub fn discard_pending(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// `usi`, the options, the variant, `isready`: the start of every engine's life.
    pub fn initialise(&mut self, variant: &str, timeout: Duration) -> Result<(), (Fault, &'static str)> {
        let deadline = Instant::now() + timeout;
        self.send("usi").map_err(|f| (f, "usi"))?;
        self.wait_for(deadline, |l| l.trim() == "usiok").map_err(|f| (f, "usiok"))?;
        let mut options = vec![(self.spec.variant_option.clone(), variant.to_string())];
        options.extend(self.spec.options.iter().cloned());
        for (k, v) in options {
            self.send(&format!("setoption name {} value {}", k, v)).map_err(|f| (f, "setoption"))?;
        }
        self.ready(deadline).map_err(|f| (f, "readyok"))
    }

    /// An engine for a game of `variant`: spawned and initialised within `timeout`, or why not
    /// (a process that cannot start counts as one that died), named as a forfeit's detail says.
    pub fn start(spec: &EngineSpec, variant: &str, timeout: Duration) -> Result<EngineProc, (Fault, String)> {
        let mut proc = EngineProc::spawn(spec).map_err(|e| (Fault::Died, e))?;
        proc.initialise(variant, timeout).map_err(|(f, what)| (f, format!("{} failed at {}", spec.name, what)))?;
        Ok(proc)
    }

    pub fn ready(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.send("isready")?;
        self.wait_for(deadline, |l| l.trim() == "readyok").map(|_| ())
    }

    pub fn alive(&self) -> bool {
        self.child.lock().map(|mut c| matches!(c.try_wait(), Ok(None))).unwrap_or(false)
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        // Closing stdin asks politely (end of input means quit); a short grace, then kill.
        let _ = self.send("quit");
        self.stdin.take();
        if let Ok(mut c) = self.child.lock() {
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until {
                if let Ok(Some(_)) = c.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Ok(mut r) = registry().lock() {
            r.retain(|c| !Arc::ptr_eq(c, &self.child));
        }
    }
}
