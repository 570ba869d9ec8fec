//! Every example session of protocol-spec.md, sent to the engine as written and its answer
//! compared with the text, so that the spec cannot go stale unnoticed. How the examples are
//! read is the spec's own: section 7's introduction.

mod common;
use common::Engine;
use std::time::Duration;

/// One example: the section it is in, its line in the file, and its lines.
struct Example {
    section: String,
    line: usize,
    lines: Vec<String>,
}

fn examples() -> Vec<Example> {
    let text = include_str!("../protocol-spec.md");
    let mut out = Vec::new();
    let mut section = String::new();
    let mut block: Option<(usize, Vec<String>)> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if block.is_none() && raw.starts_with('#') {
            section = raw.trim_start_matches('#').trim().to_string();
        }
        if line.starts_with("```") {
            match block.take() {
                None => block = Some((n + 1, Vec::new())),
                Some((at, lines)) => {
                    if lines.iter().any(|l| l.starts_with("> ")) {
                        out.push(Example { section: section.clone(), line: at, lines });
                    }
                }
            }
            continue;
        }
        if let Some((_, lines)) = block.as_mut() {
            lines.push(line.to_string());
        }
    }
    out
}

/// The variant a section's examples start in (section 7's introduction says so).
fn section_variant(section: &str) -> Option<&'static str> {
    [("5.1 ", "judkins"), ("5.2 ", "dojo"), ("5.3 ", "chaturanga"), ("5.4 ", "judtho")]
        .iter()
        .find(|(p, _)| section.starts_with(p))
        .map(|(_, v)| *v)
}

#[derive(Debug)]
enum Expect {
    /// `...` or `(board)`: any number of lines.
    Any,
    /// `info depth ...`: one or more search lines, whatever their numbers.
    Info,
    /// A line marked `(depends on the search)`: a line that starts with the same word.
    Search(String),
    Exact(String),
}

fn expectation(line: &str) -> Expect {
    const MARK: &str = "(depends on the search)";
    if line == "..." || line == "(board)" {
        Expect::Any
    } else if line.starts_with("info depth ") {
        Expect::Info
    } else if let Some(l) = line.strip_suffix(MARK) {
        Expect::Search(l.split_whitespace().next().unwrap_or("").to_string())
    } else {
        Expect::Exact(line.to_string())
    }
}

fn matches(e: &[Expect], a: &[String]) -> bool {
    match e.first() {
        None => a.is_empty(),
        Some(Expect::Any) => (0..=a.len()).any(|k| matches(&e[1..], &a[k..])),
        Some(Expect::Info) => {
            let n = a.iter().take_while(|l| l.starts_with("info depth ")).count();
            (1..=n).any(|k| matches(&e[1..], &a[k..]))
        }
        Some(Expect::Search(word)) => {
            a.first().is_some_and(|l| l.split_whitespace().next() == Some(word)) && matches(&e[1..], &a[1..])
        }
        Some(Expect::Exact(s)) => a.first() == Some(s) && matches(&e[1..], &a[1..]),
    }
}

#[test]
fn every_example_session_of_the_spec_runs_as_written() {
    let all = examples();
    // Sections 5.3, 5.4 and 7 have examples: a parser that found none would prove nothing.
    assert!(all.len() >= 12, "only {} examples found", all.len());
    let mut failures = Vec::new();
    for ex in &all {
        let mut e = Engine::start();
        let sends_variant = ex.lines.iter().any(|l| l.starts_with("> setoption name USI_Variant"));
        if let (Some(v), false) = (section_variant(&ex.section), sends_variant) {
            e.send(&format!("setoption name USI_Variant value {v}"));
            e.until(Duration::from_secs(10), |l| l.starts_with("info string variant"));
        }
        let mut expected = Vec::new();
        for l in &ex.lines {
            if let Some(cmd) = l.strip_prefix("> ") {
                e.send(cmd);
            } else if let Some(answer) = l.strip_prefix('<') {
                expected.push(expectation(answer.trim_start()));
            } else if !l.is_empty() {
                panic!("line {}: '{}' is neither '>' nor '<'", ex.line, l);
            }
        }
        e.close_stdin();
        let mut got = Vec::new();
        while let Some(l) = e.line(Duration::from_secs(30)) {
            got.push(l);
        }
        assert!(e.wait_exit(Duration::from_secs(5)), "line {}: the engine did not exit", ex.line);
        if !matches(&expected, &got) {
            // Search lines shown as one, so that the difference stands out.
            let mut shown: Vec<&str> = Vec::new();
            for l in &got {
                if !(l.starts_with("info depth ") && shown.last().is_some_and(|p| p.starts_with("info depth "))) {
                    shown.push(l);
                }
            }
            failures.push(format!(
                "example at line {} ({}):\nexpected {:#?}\ngot {:#?}",
                ex.line, ex.section, expected, shown
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_is_strict_where_the_text_is() {
    let e: Vec<Expect> = ["a", "info depth 1 x", "...", "bestmove x (depends on the search)", "b"]
        .iter()
        .map(|l| expectation(l))
        .collect();
    let got = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e, &got(&["a", "info depth 1 y", "info depth 2 z", "q", "bestmove y", "b"])));
    assert!(matches(&e, &got(&["a", "info depth 1 y", "bestmove y", "b"])));
    assert!(!matches(&e, &got(&["a", "bestmove y", "b"])), "an info line is needed");
    assert!(!matches(&e, &got(&["a", "info depth 1 y", "bestmove y", "c"])));
    assert!(!matches(&e, &got(&["a", "info depth 1 y", "bestmove y", "b", "extra"])));
}
