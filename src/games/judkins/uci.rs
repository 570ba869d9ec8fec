//! Judkins in the UCI dialect of Fairy-Stockfish and Cute Chess (protocol-spec.md, section 8):
//! the same game, other texts. Squares `a1`..`f6` with `a1` at sente's lower left (USI `6f`),
//! drops `P@d4`, promotions `+`, and FEN with the hand in brackets and `w` for sente:
//! `rbnsgk/5p/6/6/P5/KGSNBR[-] w - 1`. Only texts are translated here; the rules stay in one place.

use crate::rules::UciDialect;

/// A USI square (`5e`) in the dialect (`b2`).
fn square_out(file: u8, rank: u8) -> Option<[u8; 2]> {
    if !(b'1'..=b'6').contains(&file) || !(b'a'..=b'f').contains(&rank) {
        return None;
    }
    Some([b'a' + (b'6' - file), b'1' + (b'f' - rank)])
}

/// A square of the dialect (`b2`) in USI (`5e`).
fn square_in(file: u8, rank: u8) -> Option<[u8; 2]> {
    if !(b'a'..=b'f').contains(&file) || !(b'1'..=b'6').contains(&rank) {
        return None;
    }
    Some([b'6' - (file - b'a'), b'f' - (rank - b'1')])
}

/// A canonical USI move text (`6e6d`, `5a1e+`, `P*3c`) in the dialect (`a2a3`, `b6f2+`, `P@d4`).
pub fn move_out(usi: &str) -> String {
    let b = usi.as_bytes();
    let text = match b {
        [p, b'*', f, r] => square_out(*f, *r).map(|s| format!("{}@{}{}", *p as char, s[0] as char, s[1] as char)),
        [f1, r1, f2, r2, rest @ ..] => square_out(*f1, *r1).zip(square_out(*f2, *r2)).map(|(a, c)| {
            format!("{}{}{}{}{}", a[0] as char, a[1] as char, c[0] as char, c[1] as char, String::from_utf8_lossy(rest))
        }),
        _ => None,
    };
    // Anything else (`resign`) is the same in both.
    text.unwrap_or_else(|| usi.to_string())
}

/// A move text of the dialect in USI; `None` for a text that is no move there. Whether the move
/// is legal is the rules' business.
pub fn move_in(text: &str) -> Option<String> {
    let b = text.as_bytes();
    match b {
        // The piece letter of a drop is upper case for either side; lower case is taken too.
        [p, b'@', f, r] if p.is_ascii_alphabetic() => {
            square_in(*f, *r).map(|s| format!("{}*{}{}", p.to_ascii_uppercase() as char, s[0] as char, s[1] as char))
        }
        [f1, r1, f2, r2] | [f1, r1, f2, r2, b'+'] => square_in(*f1, *r1).zip(square_in(*f2, *r2)).map(|(a, c)| {
            let plus = if b.len() == 5 { "+" } else { "" };
            format!("{}{}{}{}{}", a[0] as char, a[1] as char, c[0] as char, c[1] as char, plus)
        }),
        _ => None,
    }
}

/// Fairy-Stockfish's FEN of a Judkins position as SFEN: `<board>[<hand>] <side> [...]`. The
/// board is written alike; the hand is a list of letters (`[PPbg]`, `[-]` or `[]` for none);
/// `w` (white, Fairy-Stockfish's first player) is sente. After the side come up to four more
/// fields (castling, en passant, halfmove clock, fullmove number): only the last, when it is a
/// number, is read, as the fullmove number, counted in moves of both sides as in chess.
pub fn fen_in(fen: &str) -> Result<String, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (Some(&first), Some(&side)) = (fields.first(), fields.get(1)) else {
        return Err(format!("FEN '{}' needs a board with its hand and a side", fen));
    };
    if fields.len() > 6 {
        return Err(format!("FEN has {} fields, at most 6", fields.len()));
    }
    let (board, hand) = first
        .strip_suffix(']')
        .and_then(|f| f.split_once('['))
        .ok_or_else(|| format!("FEN board '{}' lacks its hand in brackets", first))?;
    let mut counts: Vec<(char, u32)> = Vec::new();
    for c in hand.chars().filter(|&c| c != '-') {
        if !c.is_ascii_alphabetic() {
            return Err(format!("FEN hand has '{}'", c));
        }
        match counts.iter_mut().find(|(l, _)| *l == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    let hand: String =
        counts.iter().map(|&(c, n)| if n == 1 { c.to_string() } else { format!("{}{}", n, c) }).collect();
    let side = match side {
        "w" => "b",
        "b" => "w",
        s => return Err(format!("FEN side '{}' is not w or b", s)),
    };
    let mut number = 1u64;
    if fields.len() > 2 {
        let last = fields[fields.len() - 1];
        if let Some(full) = crate::rules::text::decimal(last).filter(|&n| n >= 1) {
            number = full.saturating_sub(1).saturating_mul(2).saturating_add(if side == "w" { 2 } else { 1 });
        } else if last != "-" {
            return Err(format!("FEN fullmove number '{}' is not a number", last));
        }
    }
    Ok(format!("{} {} {} {}", board, side, if hand.is_empty() { "-" } else { &hand }, number))
}

/// An SFEN as Fairy-Stockfish's FEN, the way Cute Chess writes Judkins positions:
/// `<board>[<hand>] <side> - <fullmove>`.
pub fn fen_out(sfen: &str) -> Result<String, String> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let [board, side, hand, rest @ ..] = f.as_slice() else {
        return Err(format!("SFEN '{}' needs a board, a side and a hand", sfen));
    };
    let mut letters = String::new();
    let mut count = 0u32;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
        } else {
            letters.extend(std::iter::repeat_n(c, count.max(1) as usize));
            count = 0;
        }
    }
    let side = match *side {
        "b" => "w",
        "w" => "b",
        s => return Err(format!("SFEN side '{}' is not b or w", s)),
    };
    let ply = rest.first().and_then(|n| crate::rules::text::decimal(n)).unwrap_or(1).max(1);
    Ok(format!("{}[{}] {} - {}", board, if letters.is_empty() { "-" } else { &letters }, side, ply.div_ceil(2)))
}

/// Judkins in the UCI dialect: FEN for positions, chess-like squares for moves, and the clocks
/// named the other way round (Fairy-Stockfish's `wtime` is the clock of the side that moves
/// first: sente, `b` in USI).
pub const DIALECT: UciDialect = UciDialect {
    position_in: fen_in,
    // Every position string this game writes is one that fen_out takes.
    position_out: |text| fen_out(text).unwrap_or_else(|_| text.to_string()),
    move_in: |text| move_in(text).ok_or_else(|| format!("'{}' is not a move in Fairy-Stockfish's notation", text)),
    move_out,
    clock_seat: |letter| match letter {
        'w' => 'b',
        'b' => 'w',
        c => c,
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::judkins::Judkins;
    use crate::rules::{MovesOf, Notation, Rules};

    #[test]
    fn squares_and_moves_both_ways() {
        assert_eq!(move_out("6e6d"), "a2a3");
        assert_eq!(move_out("5a1e+"), "b6f2+");
        assert_eq!(move_out("P*3c"), "P@d4");
        assert_eq!(move_out("resign"), "resign");
        assert_eq!(move_in("p@d4").as_deref(), Some("P*3c"));
        for bad in ["a7a6", "g1a1", "P*d4", "a2a3=", "", "a2", "1@d4"] {
            assert_eq!(move_in(bad), None, "{bad}");
        }
        // Every legal move of a few positions goes out and comes back as itself.
        let mut pos = Judkins::startpos();
        for _ in 0..30 {
            let mut list = MovesOf::<Judkins>::default();
            pos.legal_moves(&mut list);
            let Some(&first) = list.iter().next() else { break };
            for &m in list.iter() {
                let usi = pos.format_move(m);
                assert_eq!(move_in(&move_out(&usi)).as_deref(), Some(usi.as_str()));
            }
            pos.play(*list.iter().nth(list.len() / 2).unwrap_or(&first));
        }
    }

    #[test]
    fn fairy_stockfish_fens() {
        assert_eq!(fen_in("rbnsgk/5p/6/6/P5/KGSNBR[-] w - 1").unwrap(), "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
        assert_eq!(fen_in("rbnsgk/P5/6/5p/6/KGSNBR[] b - - 5 3").unwrap(), "rbnsgk/P5/6/5p/6/KGSNBR w - 6");
        assert_eq!(fen_in("rbnsgk/5p/6/6/P5/KGSNBR[PPb] w 0 1").unwrap(), "rbnsgk/5p/6/6/P5/KGSNBR b 2Pb 1");
        assert_eq!(fen_in("rbnsgk/5p/6/6/P5/KGSNBR[-] w").unwrap(), "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
        // Out and back in.
        for sfen in
            ["rbnsgk/5p/6/6/P5/KGSNBR b - 1", "rbnsgk/P5/6/5p/6/KGSNBR w 2Pb 6", "rbnsgk/P5/6/5p/6/KGSNBR b - 7"]
        {
            assert_eq!(fen_in(&fen_out(sfen).unwrap()).unwrap(), sfen);
        }
        assert_eq!(fen_out("rbnsgk/5p/6/6/P5/KGSNBR b - 1").unwrap(), "rbnsgk/5p/6/6/P5/KGSNBR[-] w - 1");
        for bad in ["rbnsgk/5p/6/6/P5/KGSNBR w - 1", "rbnsgk/5p/6/6/P5/KGSNBR[-] x", "rbnsgk/5p/6/6/P5/KGSNBR[1] w", ""]
        {
            assert!(fen_in(bad).is_err(), "{bad}");
        }
    }
}
