//! Openings files: one start a line (`Opening::parse`), `#` comments and blank lines skipped.
//! The match reads them; `tetrarch openings` writes the positions they reach, for tools that
//! take positions only (Cute Chess's EPD files).

use super::game::Opening;
use crate::rules::Game;
use crate::variants::{self, Visitor};

/// The openings of a file's text, each checked against the variant's rules.
pub fn parse(text: &str) -> Vec<Opening> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(Opening::parse).collect()
}

/// Reads an openings file.
pub fn read(path: &std::path::Path) -> Result<Vec<Opening>, String> {
    std::fs::read_to_string(path).map(|t| parse(&t)).map_err(|e| format!("{}: {}", path.display(), e))
}

/// The position each opening reaches, as the variant's position string (in the UCI dialect
/// with `uci`: Fairy-Stockfish's FEN for Judkins, as Cute Chess reads it).
pub fn positions(variant: &str, openings: &[Opening], uci: bool) -> Result<Vec<String>, String> {
    struct Positions<'a>(&'a [Opening], bool);
    impl Visitor for Positions<'_> {
        type Output = Result<Vec<String>, String>;
        fn visit<G: Game>(self) -> Self::Output {
            self.0
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let text = o.start::<G>().map_err(|e| format!("opening {}: {}", i + 1, e))?.current.to_text();
                    Ok(if self.1 { (G::UCI.position_out)(&text) } else { text })
                })
                .collect()
        }
    }
    variants::visit(variant, Positions(openings, uci)).map_err(|e| e.to_string())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judkins_openings_become_fairy_stockfish_fens() {
        let o = parse("# a comment\n\n1f1d 6a6b\nstartpos\n");
        assert_eq!(o.len(), 2);
        let p = positions("judkins", &o, true).unwrap();
        assert_eq!(p[1], "rbnsgk/5p/6/6/P5/KGSNBR[-] w - 1");
        assert!(p[0].contains('[') && p[0].ends_with(" 2"), "{}", p[0]);
        assert_eq!(positions("judkins", &o, false).unwrap()[1], "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
        assert!(positions("judkins", &parse("1a1b"), true).is_err());
    }
}
