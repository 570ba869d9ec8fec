//! The protocol's output: typed replies that print themselves, and the sink that flushes every
//! line.

use crate::search::Score;
use std::fmt;
use std::io::Write;
use std::sync::Mutex;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Combo { default: &'static str, vars: Vec<&'static str> },
    String { default: &'static str },
}

/// An iteration's report, as the game object gives it (its line already in the dialect spoken).
pub use crate::live::Line as SearchInfo;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        name: &'static str,
        author: &'static str,
    },
    Option {
        name: &'static str,
        kind: OptionKind,
    },
    UsiOk,
    UciOk,
    ReadyOk,
    Info(SearchInfo),
    /// `info string <text>`
    Text(String),
    /// `info string error <text>`
    Error(String),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    PerftMove {
        mv: String,
        nodes: u64,
    },
    PerftTotal(u64),
    LegalMoves(Vec<String>),
    Status(String),
    /// Free lines for `d`, printed as they are.
    Raw(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { name, author } => write!(f, "id name {}\nid author {}", name, author),
            Reply::Option { name, kind } => match kind {
                OptionKind::Spin { default, min, max } => {
                    write!(f, "option name {} type spin default {} min {} max {}", name, default, min, max)
                }
                OptionKind::Check { default } => write!(f, "option name {} type check default {}", name, default),
                OptionKind::String { default } => write!(f, "option name {} type string default {}", name, default),
                OptionKind::Combo { default, vars } => {
                    write!(f, "option name {} type combo default {}", name, default)?;
                    for v in vars.iter() {
                        write!(f, " var {}", v)?;
                    }
                    Ok(())
                }
            },
            Reply::UsiOk => write!(f, "usiok"),
            Reply::UciOk => write!(f, "uciok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info(i) => {
                write!(f, "info depth {} seldepth {} ", i.depth, i.seldepth)?;
                if i.multipv > 0 {
                    write!(f, "multipv {} ", i.multipv)?;
                }
                write!(f, "score ")?;
                match i.score {
                    Score::Cp(v) => write!(f, "cp {}", v)?,
                    Score::Mate(n) => write!(f, "mate {}", n)?,
                }
                write!(f, " nodes {} nps {} time {} hashfull {}", i.nodes, i.nps, i.time_ms, i.hashfull)?;
                if !i.pv.is_empty() {
                    write!(f, " pv {}", i.pv.join(" "))?;
                }
                Ok(())
            }
            Reply::Text(t) => write!(f, "info string {}", t),
            Reply::Error(t) => write!(f, "info string error {}", t),
            Reply::BestMove { mv, ponder } => match ponder {
                Some(p) => write!(f, "bestmove {} ponder {}", mv, p),
                None => write!(f, "bestmove {}", mv),
            },
            Reply::PerftMove { mv, nodes } => write!(f, "{}: {}", mv, nodes),
            Reply::PerftTotal(n) => write!(f, "\nNodes searched: {}", n),
            Reply::LegalMoves(m) => {
                write!(f, "legalmoves")?;
                for mv in m {
                    write!(f, " {}", mv)?;
                }
                Ok(())
            }
            Reply::Status(s) => write!(f, "status {}", s),
            Reply::Raw(s) => write!(f, "{}", s.trim_end_matches('\n')),
        }
    }
}

/// Where replies go: stdout for the engine, a buffer in tests. Each reply is written whole and
/// flushed under one lock, so lines from the search thread and the reader never interleave.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

/// Control characters (a NUL, an escape) never reach the output raw, whatever input an error
/// line echoes: they are written as Rust escapes (`\0` as `\u{0}`). Line breaks between the
/// lines of a multi-line reply (`d`) and tabs stay.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return s.to_string();
    }
    s.chars()
        .map(|c| if c.is_control() && c != '\n' && c != '\t' { c.escape_default().to_string() } else { c.to_string() })
        .collect()
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output { sink: Mutex::new(sink) }
    }

    pub fn stdout() -> Self {
        Self::new(Box::new(std::io::stdout()))
    }

    pub fn send(&self, r: &Reply) {
        let text = escape_controls(&r.to_string());
        for line in text.lines() {
            log::debug!(">> {}", line);
        }
        let text = text + "\n";
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A closed stdout (the GUI went away) is not worth a panic; end of input follows.
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
    }
}
