//! What every game's position string shares: numbers written one way only, and the board
//! field, read and written one way for every game.

use std::fmt::Write as _;

/// A number exactly as the position strings write it: decimal digits, no sign, no leading zero
/// (`0` itself aside), and no more than 64 bits. `+1`, `01` and `1_000` are not numbers here.
pub fn decimal(s: &str) -> Option<u64> {
    let canonical = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical { s.parse().ok() } else { None }
}

/// A field that must be a number from `min` to `max`; `what` names it in the error.
pub fn number(s: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = decimal(s).ok_or_else(|| format!("{} '{}' is not a number", what, s))?;
    if v < min || v > max {
        return Err(format!("{} {} is out of range ({} to {})", what, v, min, max));
    }
    Ok(v)
}

/// A position string's fields, split at white space; refused with `needs` and the count found
/// unless there are from `min` to `max` of them.
pub fn fields<'a>(text: &'a str, min: usize, max: usize, needs: &str) -> Result<Vec<&'a str>, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < min || fields.len() > max {
        return Err(format!("{}, got {}", needs, fields.len()));
    }
    Ok(fields)
}

/// An 8x8 board in FEN's order, rank 8 first, as `read_board` reads it; `put` gets the square
/// counted from a1 = 0.
pub fn read_board_8x8<P>(
    field: &str,
    piece: impl FnMut(&mut std::str::Chars<'_>) -> Result<P, String>,
    mut put: impl FnMut(P, usize) -> Result<(), String>,
) -> Result<(), String> {
    read_board(field, 8, 8, |row| (8 - row).to_string(), piece, |p, row, file| put(p, (7 - row) * 8 + file))
}

/// Reads a board field: `ranks` ranks from the top, separated by `/`, each its squares from the
/// left as pieces and counts of empty squares. A count is the whole run of digits, 1 to the
/// board's width without a leading zero, so that each run of empty squares has one spelling
/// (`11` is not how 2 is written on an 8-wide board). `piece` reads one piece from the rank's
/// next characters (never a digit) or says what is wrong with them; the error is then given
/// with the rank's name (`rank_name` of its row from the top). `put` places a piece at its row
/// from the top and its column, or refuses the board with an error of its own.
pub fn read_board<P>(
    field: &str,
    files: usize,
    ranks: usize,
    rank_name: impl Fn(usize) -> String,
    mut piece: impl FnMut(&mut std::str::Chars<'_>) -> Result<P, String>,
    mut put: impl FnMut(P, usize, usize) -> Result<(), String>,
) -> Result<(), String> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != ranks {
        return Err(format!("board needs {} ranks, got {}", ranks, rows.len()));
    }
    for (row, text) in rows.iter().enumerate() {
        let mut col = 0usize;
        let mut rest = text.chars();
        while !rest.as_str().is_empty() {
            let left = rest.as_str();
            let digits = left.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                let count = &left[..digits];
                match decimal(count) {
                    Some(n) if n >= 1 && n <= files as u64 => col += n as usize,
                    _ => return Err(format!("rank {}: bad count '{}'", rank_name(row), count)),
                }
                rest = left[digits..].chars();
            } else {
                let p = piece(&mut rest).map_err(|e| format!("rank {}: {}", rank_name(row), e))?;
                if col >= files {
                    return Err(format!("rank {} has more than {} squares", rank_name(row), files));
                }
                put(p, row, col)?;
                col += 1;
            }
            if col > files {
                return Err(format!("rank {} has more than {} squares", rank_name(row), files));
            }
        }
        if col != files {
            return Err(format!("rank {} has {} squares, not {}", rank_name(row), col, files));
        }
    }
    Ok(())
}

/// Writes a board field as `read_board` reads it: `token` writes the piece at a row from the top
/// and a column, and nothing for an empty square.
pub fn write_board(s: &mut String, files: usize, ranks: usize, mut token: impl FnMut(usize, usize, &mut String)) {
    let mut piece = String::new();
    for row in 0..ranks {
        if row > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for col in 0..files {
            piece.clear();
            token(row, col, &mut piece);
            if piece.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(s, "{}", empty);
                empty = 0;
            }
            s.push_str(&piece);
        }
        if empty > 0 {
            let _ = write!(s, "{}", empty);
        }
    }
}

/// An 8x8 board as `read_board_8x8` reads it: `token` writes the piece on a square counted
/// from a1 = 0.
pub fn write_board_8x8(s: &mut String, mut token: impl FnMut(usize, &mut String)) {
    write_board(s, 8, 8, |row, file, out| token((7 - row) * 8 + file, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_per_number() {
        assert_eq!(decimal("0"), Some(0));
        assert_eq!(decimal("18446744073709551615"), Some(u64::MAX));
        for bad in ["", "+1", "-1", "01", "00", "1 ", "1_0", "18446744073709551616", "１"] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
        assert!(number("7", "n", 1, 5).unwrap_err().contains("out of range"));
    }

    /// A board of single-letter pieces, read and written back.
    fn board(field: &str, files: usize, ranks: usize) -> Result<String, String> {
        let mut squares = vec![None; files * ranks];
        read_board(
            field,
            files,
            ranks,
            |row| (ranks - row).to_string(),
            |c| match c.next() {
                Some(l) if l.is_ascii_alphabetic() => Ok(l),
                Some(l) => Err(format!("'{}' is not a piece", l)),
                None => Err("nothing".into()),
            },
            |p, row, col| {
                squares[row * files + col] = Some(p);
                Ok(())
            },
        )?;
        let mut s = String::new();
        write_board(&mut s, files, ranks, |row, col, out| out.extend(squares[row * files + col]));
        Ok(s)
    }

    #[test]
    fn one_spelling_per_board() {
        for field in ["8/8", "p7/7p", "3pp3/8", "PPPPPPPP/1p1p1p1p"] {
            assert_eq!(board(field, 8, 2).as_deref(), Ok(field));
        }
        assert_eq!(board("12/k11/5kk5/12", 12, 4).as_deref(), Ok("12/k11/5kk5/12"));
        for (field, error) in [
            ("8", "board needs 2 ranks, got 1"),
            ("8/8/8", "board needs 2 ranks, got 3"),
            ("44/8", "rank 2: bad count '44'"),
            ("08/8", "rank 2: bad count '08'"),
            ("0/8", "rank 2: bad count '0'"),
            ("9/8", "rank 2: bad count '9'"),
            ("8/p8", "rank 1 has more than 8 squares"),
            ("8/8p", "rank 1 has more than 8 squares"),
            ("7/8", "rank 2 has 7 squares, not 8"),
            ("8/ppp*pppp", "rank 1: '*' is not a piece"),
            ("8/7é", "rank 1: 'é' is not a piece"),
        ] {
            assert_eq!(board(field, 8, 2), Err(error.to_string()), "{field}");
        }
        assert_eq!(board("111/12", 12, 2), Err("rank 2: bad count '111'".to_string()));
        assert_eq!(board("k12/12", 12, 2), Err("rank 2 has more than 12 squares".to_string()));
    }
}
