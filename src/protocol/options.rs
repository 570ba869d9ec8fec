//! The engine's options, declared once: `OPTIONS` gives each its names in the two dialects,
//! its kind, default and range, and how a value is applied. `usi` and `uci` print from it and
//! `setoption` reads and checks values by it (Stockfish's `OptionsMap` is the model).

use super::command::{self, shown};
use super::reply::{OptionKind, Reply};
use crate::search::{MAX_HASH_MIB, MAX_THREADS};
use crate::variants;
use crate::variants::VariantError;

/// The values of the options, as the session and a search read them.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub hash_mib: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Games with more than two sides: Best-Reply Search instead of paranoid.
    /// `None`: each game's own choice (its `SearchPolicy::best_reply`).
    pub best_reply: Option<bool>,
    pub overhead_ms: u64,
    pub ponder: bool,
    /// How many best moves each iteration reports (`MultiPV`).
    pub multipv: usize,
    /// Speaking the UCI dialect (after `uci`): Fairy-Stockfish's texts where a game has its own.
    pub uci: bool,
    /// Evaluate with a network where the variant has one (`EvalFile`, else the built-in one).
    pub use_nnue: bool,
}

impl Options {
    pub const DEFAULT: Options = Options {
        hash_mib: 16,
        threads: 1,
        best_reply: None,
        overhead_ms: 50,
        ponder: false,
        multipv: 1,
        uci: false,
        use_nnue: true,
    };
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

pub use crate::variants::DEFAULT_VARIANT;

/// The longest move overhead the `MoveOverhead` option takes, in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5000;
/// The most lines `MultiPV` asks for (a Judtho position has more legal moves than that, but no
/// one reads more lines).
pub const MAX_MULTIPV: u64 = 500;

/// An option that `setoption` refuses: unknown, without its value, a value out of range or not
/// one it takes, or not while a search runs; in the protocol's words, naming the option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError(pub String);

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.0
    }
}

/// What an option's setter changes: the options, the engine, and where a note goes. The
/// session is the one implementation; the options know it by this alone.
pub(super) trait Settings {
    fn options(&mut self) -> &mut Options;
    fn searching(&mut self) -> bool;
    /// Sets `USI_Hash` and resizes the hash table; the MiB it got.
    fn set_hash(&mut self, mib: usize) -> usize;
    /// Sets `Threads` and the searcher's threads.
    fn set_threads(&mut self, n: usize);
    fn choose_variant(&mut self, name: &str) -> Result<(), VariantError>;
    /// Reads the network file `path` (`EVAL_FILE_BUILT_IN`: none, back to the built-in
    /// networks) and evaluates with it where it fits; the previous file stays on an error.
    fn set_eval_file(&mut self, path: &str) -> Result<(), String>;
    /// Puts `Use NNUE` and `EvalFile` into effect for the variant played.
    fn apply_network(&mut self) -> Result<(), String>;
    fn send(&self, r: Reply);
}

/// `EvalFile`'s value for no file: each variant's built-in network, where it has one.
pub const EVAL_FILE_BUILT_IN: &str = "built-in";

/// What an option takes, and the setter that applies a value it has read and checked. A number
/// in range and a word of the list always apply; a flag, a file or a variant may be refused (a
/// network that does not fit, a name not known), and then nothing changes.
pub(super) enum Kind {
    /// A whole number in `min..=max`.
    Spin {
        default: u64,
        min: u64,
        max: u64,
        set: fn(&mut dyn Settings, u64),
    },
    Check {
        default: bool,
        set: fn(&mut dyn Settings, bool) -> Result<(), String>,
    },
    /// One of `vars`.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        set: fn(&mut dyn Settings, &str),
    },
    /// Any text to the end of the line (a file's path).
    Text {
        default: &'static str,
        set: fn(&mut dyn Settings, &str) -> Result<(), String>,
    },
    /// A playable variant of the registry, by its name in the dialect spoken.
    Variant {
        set: fn(&mut dyn Settings, &str) -> Result<(), String>,
    },
}

pub(super) struct EngineOption {
    /// Its name under `usi`, which error texts use in both dialects.
    pub usi: &'static str,
    /// Its name under `uci` (the names Fairy-Stockfish and Cute Chess use).
    pub uci: &'static str,
    pub kind: Kind,
    /// Refused while a search runs: setting it rebuilds the searcher or the variant.
    pub idle: bool,
}

const MULTI_SEARCH: [&str; 3] = ["auto", "paranoid", "brs"];

/// Every option, in the order `usi` and `uci` list them.
pub(super) const OPTIONS: &[EngineOption] = &[
    EngineOption {
        usi: "USI_Hash",
        uci: "Hash",
        kind: Kind::Spin {
            default: Options::DEFAULT.hash_mib as u64,
            min: 1,
            max: MAX_HASH_MIB as u64,
            set: |s, mib| {
                let got = s.set_hash(mib as usize);
                if got.saturating_mul(2) <= mib as usize {
                    s.send(Reply::Text(format!("USI_Hash: {} MiB, the most this machine would give", got)));
                }
            },
        },
        idle: true,
    },
    EngineOption {
        usi: "Threads",
        uci: "Threads",
        kind: Kind::Spin {
            default: Options::DEFAULT.threads as u64,
            min: 1,
            max: MAX_THREADS as u64,
            set: |s, n| s.set_threads(n as usize),
        },
        idle: true,
    },
    EngineOption {
        usi: "USI_Ponder",
        uci: "Ponder",
        kind: Kind::Check {
            default: Options::DEFAULT.ponder,
            set: |s, b| {
                s.options().ponder = b;
                Ok(())
            },
        },
        idle: false,
    },
    EngineOption {
        usi: "MultiPV",
        uci: "MultiPV",
        kind: Kind::Spin {
            default: Options::DEFAULT.multipv as u64,
            min: 1,
            max: MAX_MULTIPV,
            set: |s, n| s.options().multipv = n as usize,
        },
        idle: false,
    },
    EngineOption {
        usi: "USI_Variant",
        uci: "UCI_Variant",
        kind: Kind::Variant {
            set: |s, v| {
                let name = if s.options().uci {
                    variants::from_uci_name(v).map_err(|e| format!("setoption UCI_Variant: {}", e))?
                } else {
                    v
                };
                s.choose_variant(name).map_err(|e| format!("setoption USI_Variant: {}", e))
            },
        },
        idle: true,
    },
    EngineOption {
        usi: "MoveOverhead",
        uci: "Move Overhead",
        kind: Kind::Spin {
            default: Options::DEFAULT.overhead_ms,
            min: 0,
            max: MAX_OVERHEAD_MS,
            set: |s, ms| s.options().overhead_ms = ms,
        },
        idle: false,
    },
    EngineOption {
        usi: "MultiSearch",
        uci: "MultiSearch",
        kind: Kind::Combo {
            default: match Options::DEFAULT.best_reply {
                None => MULTI_SEARCH[0],
                Some(false) => MULTI_SEARCH[1],
                Some(true) => MULTI_SEARCH[2],
            },
            vars: &MULTI_SEARCH,
            set: |s, w| {
                s.options().best_reply = match w {
                    "paranoid" => Some(false),
                    "brs" => Some(true),
                    _ => None,
                };
            },
        },
        idle: false,
    },
    EngineOption {
        usi: "UseNNUE",
        uci: "Use NNUE",
        kind: Kind::Check {
            default: Options::DEFAULT.use_nnue,
            set: |s, b| {
                let before = s.options().use_nnue;
                s.options().use_nnue = b;
                s.apply_network().inspect_err(|_| s.options().use_nnue = before)
            },
        },
        idle: true,
    },
    EngineOption {
        usi: "EvalFile",
        uci: "EvalFile",
        kind: Kind::Text { default: EVAL_FILE_BUILT_IN, set: |s, path| s.set_eval_file(path) },
        idle: true,
    },
];

impl EngineOption {
    /// The option as `usi` (or, `uci`, `uci`) announces it.
    pub(super) fn announce(&self, uci: bool) -> Reply {
        let name = if uci { self.uci } else { self.usi };
        let kind = match self.kind {
            Kind::Spin { default, min, max, .. } => {
                OptionKind::Spin { default: default as i64, min: min as i64, max: max as i64 }
            }
            Kind::Check { default, .. } => OptionKind::Check { default },
            Kind::Combo { default, vars, .. } => OptionKind::Combo { default, vars: vars.to_vec() },
            Kind::Text { default, .. } => OptionKind::String { default },
            Kind::Variant { .. } => {
                let names = variants::names();
                OptionKind::Combo {
                    default: if uci { variants::uci_name(DEFAULT_VARIANT) } else { DEFAULT_VARIANT },
                    vars: if uci { names.into_iter().map(variants::uci_name).collect() } else { names },
                }
            }
        };
        Reply::Option { name, kind }
    }

    /// Whether `key` (a `setoption` name without blanks, in lower case) names this option, in
    /// either dialect.
    fn is_named(&self, key: &str) -> bool {
        let norm = |n: &str| n.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        norm(self.usi) == key || norm(self.uci) == key
    }
}

/// `setoption name <name> [value <value>]`: finds the option, reads and checks the value, and
/// applies it; on any error nothing changes.
pub(super) fn set_option(s: &mut dyn Settings, name: &str, value: Option<&str>) -> Result<(), OptionError> {
    set(s, name, value).map_err(OptionError)
}

fn set(s: &mut dyn Settings, name: &str, value: Option<&str>) -> Result<(), String> {
    let key: String = name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let option = OPTIONS
        .iter()
        .find(|o| o.is_named(&key))
        .ok_or_else(|| format!("setoption: unknown option '{}'", shown(name)))?;
    let value = value.ok_or_else(|| format!("setoption: '{}' needs a value", shown(name)))?;
    // The value is read and checked first; an option that rebuilds the searcher or the variant
    // then waits for no search; the errors name the option by its `usi` name in both dialects.
    let name = option.usi;
    let idle = |s: &mut dyn Settings| {
        if option.idle && s.searching() {
            return Err(format!("setoption {}: not while a search is running", name));
        }
        Ok(())
    };
    match option.kind {
        Kind::Spin { min, max, set, .. } => {
            let v = command::parse_int(value).map_err(|e| format!("setoption {}: {}", name, e))?;
            if !(min..=max).contains(&v) {
                return Err(format!("setoption {}: {} is out of range {}..{}", name, v, min, max));
            }
            idle(s)?;
            set(s, v);
            Ok(())
        }
        Kind::Check { set, .. } => {
            let b = command::parse_bool(value).map_err(|e| format!("setoption {}: {}", name, e))?;
            idle(s)?;
            set(s, b)
        }
        Kind::Combo { vars, set, .. } => {
            if !vars.contains(&value) {
                let (last, rest) = vars.split_last().unwrap_or((&"", &[]));
                return Err(format!("setoption {}: '{}' is not {} or {}", name, shown(value), rest.join(", "), last));
            }
            idle(s)?;
            set(s, value);
            Ok(())
        }
        Kind::Text { set, .. } => {
            idle(s)?;
            set(s, value).map_err(|e| format!("setoption {}: {}", name, e))
        }
        Kind::Variant { set } => {
            idle(s)?;
            set(s, value)
        }
    }
}
