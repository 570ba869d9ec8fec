//! `cargo bench --bench latency`: how fast the engine answers `isready` during a search and
//! `bestmove` after `stop`. Prints figures; asserts nothing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

fn main() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    let mut send = |s: &str| {
        stdin.write_all(format!("{s}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        Instant::now()
    };
    let wait = |prefix: &str| loop {
        let (t, l) = rx.recv_timeout(Duration::from_secs(30)).expect("engine answers");
        if l.starts_with(prefix) {
            return t;
        }
    };
    send("usi");
    wait("usiok");
    let mut ready = Vec::new();
    let mut stop = Vec::new();
    for round in 0..20 {
        send(if round % 2 == 0 { "position startpos" } else { "position startpos moves 6e6d 1b1c" });
        send("go infinite");
        for _ in 0..10 {
            std::thread::sleep(Duration::from_millis(20));
            let t = send("isready");
            ready.push(wait("readyok") - t);
        }
        let t = send("stop");
        stop.push(wait("bestmove") - t);
    }
    send("quit");
    let _ = child.wait();
    let show = |name: &str, v: &mut Vec<Duration>| {
        v.sort();
        println!(
            "{name:<22} n {:3}  min {:8.3} ms  median {:8.3} ms  max {:8.3} ms",
            v.len(),
            v[0].as_secs_f64() * 1e3,
            v[v.len() / 2].as_secs_f64() * 1e3,
            v[v.len() - 1].as_secs_f64() * 1e3
        );
    };
    show("isready during search", &mut ready);
    show("stop to bestmove", &mut stop);
}
