//! `cargo bench --bench startup`: how long a fresh engine takes from `usi` to `usiok`, and from
//! `setoption name USI_Variant value <v>` to `readyok`, for every playable variant. Every table
//! is made at build time, so both should take well under 10 ms. Prints figures; asserts nothing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Times `usi` to `usiok` in a fresh engine and then, given a variant, choosing it to `readyok`.
fn timed(variant: Option<&str>) -> (Duration, Duration) {
    // TETRARCH_BIN measures another build (an older one, say) the same way.
    let bin = std::env::var("TETRARCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tetrarch").to_string());
    let mut child = Command::new(bin).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut wait = |prefix: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("engine closed its output before '{prefix}'");
            }
            if line.starts_with(prefix) {
                return;
            }
        }
    };
    let t = Instant::now();
    stdin.write_all(b"usi\n").unwrap();
    stdin.flush().unwrap();
    wait("usiok");
    let usi = t.elapsed();
    let mut select = Duration::ZERO;
    if let Some(v) = variant {
        let t = Instant::now();
        stdin.write_all(format!("setoption name USI_Variant value {v}\nisready\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        wait("readyok");
        select = t.elapsed();
    }
    stdin.write_all(b"quit\n").unwrap();
    let _ = child.wait();
    (usi, select)
}

fn main() {
    const RUNS: usize = 15;
    let show = |name: &str, mut v: Vec<Duration>| {
        v.sort();
        println!(
            "{name:<44} n {:3}  min {:7.2} ms  median {:7.2} ms  max {:7.2} ms",
            v.len(),
            v[0].as_secs_f64() * 1e3,
            v[v.len() / 2].as_secs_f64() * 1e3,
            v[v.len() - 1].as_secs_f64() * 1e3
        );
    };
    show("usi to usiok (a fresh process)", (0..RUNS).map(|_| timed(None).0).collect());
    for v in tetrarch::variants::names() {
        show(&format!("USI_Variant {v} to readyok"), (0..RUNS).map(|_| timed(Some(v)).1).collect());
    }
}
