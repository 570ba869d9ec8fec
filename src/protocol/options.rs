//! The engine's options, declared once: `OPTIONS` gives each its names in the two dialects,
//! its kind, default and range, and how a value is applied. `usi` and `uci` print from it and
//! `setoption` reads and checks values by it (Stockfish's `OptionsMap` is the model).

use super::command;
use super::reply::{OptionKind, Reply};
use super::session::{Session, shown};
use crate::rules::registry;
use crate::search::{MAX_HASH_MIB, MAX_THREADS};

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
    /// Speaking the UCI dialect (after `uci`): Fairy-Stockfish's texts where a game has its own.
    pub uci: bool,
}

impl Options {
    pub const DEFAULT: Options =
        Options { hash_mib: 16, threads: 1, best_reply: None, overhead_ms: 50, ponder: false, uci: false };
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

pub use crate::rules::registry::DEFAULT_VARIANT;

/// The longest move overhead the `MoveOverhead` option takes, in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5000;

/// What an option takes.
pub(super) enum Kind {
    /// A whole number in `min..=max`.
    Spin {
        default: u64,
        min: u64,
        max: u64,
    },
    Check {
        default: bool,
    },
    /// One of `vars`.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// A playable variant of the registry, by its name in the dialect spoken.
    Variant,
}

/// A value that its option's kind has read and checked.
pub(super) enum Value<'a> {
    Int(u64),
    Bool(bool),
    Word(&'a str),
}

pub(super) struct EngineOption {
    /// Its name under `usi`, which error texts use in both dialects.
    pub usi: &'static str,
    /// Its name under `uci` (the names Fairy-Stockfish and Cute Chess use).
    pub uci: &'static str,
    pub kind: Kind,
    /// Refused while a search runs: setting it rebuilds the searcher or the variant.
    pub idle: bool,
    pub set: fn(&mut Session, Value<'_>) -> Result<(), String>,
}

const MULTI_SEARCH: [&str; 3] = ["auto", "paranoid", "brs"];

/// Every option, in the order `usi` and `uci` list them.
pub(super) const OPTIONS: &[EngineOption] = &[
    EngineOption {
        usi: "USI_Hash",
        uci: "Hash",
        kind: Kind::Spin { default: Options::DEFAULT.hash_mib as u64, min: 1, max: MAX_HASH_MIB as u64 },
        idle: true,
        set: |s, v| {
            let Value::Int(mib) = v else { return Err(wrong_kind("USI_Hash")) };
            s.options.hash_mib = mib as usize;
            let got = s.engine.set_hash(mib as usize);
            if got.saturating_mul(2) <= mib as usize {
                s.send(Reply::Text(format!("USI_Hash: {} MiB, the most this machine would give", got)));
            }
            Ok(())
        },
    },
    EngineOption {
        usi: "Threads",
        uci: "Threads",
        kind: Kind::Spin { default: Options::DEFAULT.threads as u64, min: 1, max: MAX_THREADS as u64 },
        idle: true,
        set: |s, v| {
            let Value::Int(n) = v else { return Err(wrong_kind("Threads")) };
            s.options.threads = n as usize;
            s.engine.set_threads(n as usize);
            Ok(())
        },
    },
    EngineOption {
        usi: "USI_Ponder",
        uci: "Ponder",
        kind: Kind::Check { default: Options::DEFAULT.ponder },
        idle: false,
        set: |s, v| {
            let Value::Bool(b) = v else { return Err(wrong_kind("USI_Ponder")) };
            s.options.ponder = b;
            Ok(())
        },
    },
    EngineOption {
        usi: "USI_Variant",
        uci: "UCI_Variant",
        kind: Kind::Variant,
        idle: true,
        set: |s, v| {
            let Value::Word(v) = v else { return Err(wrong_kind("USI_Variant")) };
            let name = if s.options.uci {
                registry::from_uci_name(v).map_err(|e| format!("setoption UCI_Variant: {}", e))?
            } else {
                v
            };
            s.choose_variant(name).map_err(|e| format!("setoption USI_Variant: {}", e))
        },
    },
    EngineOption {
        usi: "MoveOverhead",
        uci: "Move Overhead",
        kind: Kind::Spin { default: Options::DEFAULT.overhead_ms, min: 0, max: MAX_OVERHEAD_MS },
        idle: false,
        set: |s, v| {
            let Value::Int(ms) = v else { return Err(wrong_kind("MoveOverhead")) };
            s.options.overhead_ms = ms;
            Ok(())
        },
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
        },
        idle: false,
        set: |s, v| {
            let Value::Word(w) = v else { return Err(wrong_kind("MultiSearch")) };
            s.options.best_reply = match w {
                "paranoid" => Some(false),
                "brs" => Some(true),
                _ => None,
            };
            Ok(())
        },
    },
];

/// A setter handed a value of another kind: a mistake in `OPTIONS`, not in the input.
fn wrong_kind(option: &str) -> String {
    format!("setoption {}: internal error: a value of the wrong kind", option)
}

impl EngineOption {
    /// The option as `usi` (or, `uci`, `uci`) announces it.
    pub(super) fn announce(&self, uci: bool) -> Reply {
        let name = if uci { self.uci } else { self.usi };
        let kind = match self.kind {
            Kind::Spin { default, min, max } => {
                OptionKind::Spin { default: default as i64, min: min as i64, max: max as i64 }
            }
            Kind::Check { default } => OptionKind::Check { default },
            Kind::Combo { default, vars } => OptionKind::Combo { default, vars: vars.to_vec() },
            Kind::Variant => {
                let names = registry::names(true);
                OptionKind::Combo {
                    default: if uci { registry::uci_name(DEFAULT_VARIANT) } else { DEFAULT_VARIANT },
                    vars: if uci { names.into_iter().map(registry::uci_name).collect() } else { names },
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

    /// Reads and checks `value` by the option's kind; the errors name the option by `usi`.
    fn read<'a>(&self, value: &'a str) -> Result<Value<'a>, String> {
        let name = self.usi;
        match self.kind {
            Kind::Spin { min, max, .. } => {
                let v = command::parse_int(value).map_err(|e| format!("setoption {}: {}", name, e))?;
                if !(min..=max).contains(&v) {
                    return Err(format!("setoption {}: {} is out of range {}..{}", name, v, min, max));
                }
                Ok(Value::Int(v))
            }
            Kind::Check { .. } => {
                command::parse_bool(value).map(Value::Bool).map_err(|e| format!("setoption {}: {}", name, e))
            }
            Kind::Combo { vars, .. } => {
                if vars.contains(&value) {
                    return Ok(Value::Word(value));
                }
                let (last, rest) = vars.split_last().unwrap_or((&"", &[]));
                Err(format!("setoption {}: '{}' is not {} or {}", name, shown(value), rest.join(", "), last))
            }
            Kind::Variant => Ok(Value::Word(value)),
        }
    }
}

/// `setoption name <name> [value <value>]`: finds the option, reads and checks the value, and
/// applies it; on any error nothing changes.
pub(super) fn set_option(s: &mut Session, name: &str, value: Option<&str>) -> Result<(), String> {
    let key: String = name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let option = OPTIONS
        .iter()
        .find(|o| o.is_named(&key))
        .ok_or_else(|| format!("setoption: unknown option '{}'", shown(name)))?;
    let value = value.ok_or_else(|| format!("setoption: '{}' needs a value", shown(name)))?;
    let value = option.read(value)?;
    if option.idle && s.engine.searching() {
        return Err(format!("setoption {}: not while a search is running", option.usi));
    }
    (option.set)(s, value)
}
