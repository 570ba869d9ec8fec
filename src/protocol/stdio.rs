//! The engine on stdin and stdout: a reader thread that turns input into lines of at most
//! `MAX_LINE` bytes, and the loop that hands them to the session.

use super::reply::{Output, Reply};
use super::session::Session;
use std::io::BufRead;
use std::sync::{Arc, mpsc};

/// Longest accepted input line; longer ones are refused whole.
pub const MAX_LINE: usize = 1 << 20;

/// Reads one line of at most `MAX_LINE` bytes, not counting its `\n` or `\r\n`. A longer line
/// is consumed and reported as `Err(len)`; `Ok(None)` is the end of input.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Result<(), usize>>> {
    buf.clear();
    let mut too_long = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if buf.is_empty() && too_long == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        // Room for the longest line and its `\r\n`; what is past that is counted, not kept.
        if too_long > 0 || buf.len() + take > MAX_LINE + 2 {
            let ending = match &chunk[..take] {
                [.., b'\r', b'\n'] => 2,
                [.., b'\n'] => 1,
                _ => 0,
            };
            too_long += take - ending;
            too_long += std::mem::take(buf).len();
        } else {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if done {
            break;
        }
    }
    let ending = if buf.ends_with(b"\r\n") { 2 } else { usize::from(buf.ends_with(b"\n")) };
    if too_long == 0 && buf.len() - ending > MAX_LINE {
        too_long = buf.len() - ending;
        buf.clear();
    }
    Ok(Some(if too_long > 0 { Err(too_long) } else { Ok(()) }))
}

enum Input {
    Line(String),
    Refused(String),
    End,
}

/// The engine's main loop on stdin and stdout. A reader thread turns stdin into lines, so that
/// commands waiting for a search never keep `isready` or `stop` from being read. End of input
/// means quit.
pub fn run_stdio() {
    let out = Arc::new(Output::stdout());
    let mut session = Session::new(Arc::clone(&out));
    let (tx, rx) = mpsc::channel::<Input>();
    let reader = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::with_capacity(4096);
        loop {
            let msg = match read_line(&mut input, &mut buf) {
                Ok(None) | Err(_) => Input::End,
                Ok(Some(Err(len))) => {
                    Input::Refused(format!("input line of {} bytes is longer than {} and was ignored", len, MAX_LINE))
                }
                Ok(Some(Ok(()))) => match std::str::from_utf8(&buf) {
                    Ok(line) => Input::Line(line.to_string()),
                    Err(_) => Input::Refused("input line is not valid UTF-8 and was ignored".into()),
                },
            };
            let end = matches!(msg, Input::End);
            if tx.send(msg).is_err() || end {
                return;
            }
        }
    });
    if reader.is_err() {
        out.send(&Reply::Error("cannot start the input thread".into()));
        return;
    }
    loop {
        let msg = if session.has_pending() {
            match rx.recv_timeout(std::time::Duration::from_millis(1)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    session.pump();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => Input::End,
            }
        } else {
            rx.recv().unwrap_or(Input::End)
        };
        match msg {
            Input::Line(line) => {
                log::debug!("<< {}", super::reply::escape_controls(line.trim_end()));
                if !session.input(&line) {
                    session.shutdown();
                    break;
                }
            }
            Input::Refused(e) => out.send(&Reply::Error(e)),
            Input::End => {
                session.finish();
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<usize, usize>> {
        let mut r = std::io::BufReader::with_capacity(4096, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, &mut buf).unwrap() {
            out.push(l.map(|_| buf.len()));
        }
        out
    }

    #[test]
    fn the_line_limit_counts_the_line_without_its_ending() {
        let full = vec![b'x'; MAX_LINE];
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let mut input = full.clone();
            input.extend_from_slice(ending);
            input.extend_from_slice(b"isready\n");
            let got = lines(&input);
            if ending.is_empty() {
                // No ending: the line runs on into the next one and is too long.
                assert_eq!(got, vec![Err(MAX_LINE + 7)]);
            } else {
                assert_eq!(got, vec![Ok(MAX_LINE + ending.len()), Ok(8)], "ending {ending:?}");
            }
        }
        let mut over = vec![b'x'; MAX_LINE + 1];
        over.extend_from_slice(b"\r\nisready\n");
        assert_eq!(lines(&over), vec![Err(MAX_LINE + 1), Ok(8)]);
        // The last line may end with the input.
        assert_eq!(lines(&full), vec![Ok(MAX_LINE)]);
    }
}
