//! What every game's position string shares: numbers written one way only.

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
}
