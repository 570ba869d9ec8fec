//! The JSON lines under `fixtures/` are the compatibility test of the match's JSON lines: every
//! line of every file still reads, and a line of today's form is written back byte for byte.

use tetrarch::arbiter::jsonl::GameLine;

#[test]
fn every_fixture_line_reads_and_todays_lines_write_back_byte_for_byte() {
    let mut read = 0;
    let mut rewritten = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let g = GameLine::parse(line).unwrap_or_else(|e| panic!("{}:{}: {}", path.display(), i + 1, e));
            assert!(!g.moves.is_empty() && !g.players.is_empty(), "{}:{}", path.display(), i + 1);
            read += 1;
            // Lines of today's form, with another engine's "evals" appended at the end.
            if line.contains("\"duration_ms\"") {
                let own = match line.find(",\"evals\":") {
                    Some(at) => format!("{}}}", &line[..at]),
                    None => line.to_string(),
                };
                assert_eq!(g.to_line(), own, "{}:{}", path.display(), i + 1);
                rewritten += 1;
            }
        }
    }
    assert!(read > 10_000, "{read} lines read");
    assert!(rewritten >= 1_672, "{rewritten} lines written back");
}
