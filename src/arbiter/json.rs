//! Just enough JSON to read back the match's own JSON lines (`record::json`): values, arrays,
//! objects, strings with their escapes, numbers; and to write them (`Display`), for the
//! requests and answers of `tetrarch gui`.

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn str(&self) -> Option<&str> {
        if let Json::Str(s) = self { Some(s) } else { None }
    }
    pub fn num(&self) -> Option<f64> {
        if let Json::Num(n) = self { Some(*n) } else { None }
    }
    pub fn arr(&self) -> Option<&[Json]> {
        if let Json::Arr(a) = self { Some(a) } else { None }
    }
    /// A non-negative integer that fits in 64 bits exactly as written.
    pub fn u64(&self) -> Option<u64> {
        self.num().filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n < 1.8e19).map(|n| n as u64)
    }
}

impl std::fmt::Display for Json {
    /// Compact JSON; numbers that are whole are written without a fraction.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{}", b),
            Json::Num(n) if n.is_finite() && n.fract() == 0.0 && n.abs() < 9e15 => write!(f, "{}", *n as i64),
            Json::Num(n) if n.is_finite() => write!(f, "{}", n),
            Json::Num(_) => f.write_str("null"),
            Json::Str(s) => f.write_str(&super::record::escape_json(s)),
            Json::Arr(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", v)?;
                }
                f.write_str("]")
            }
            Json::Obj(kv) => {
                f.write_str("{")?;
                for (i, (k, v)) in kv.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{}", super::record::escape_json(k), v)?;
                }
                f.write_str("}")
            }
        }
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<u64> for Json {
    fn from(n: u64) -> Json {
        Json::Num(n as f64)
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Json {
        Json::Num(n as f64)
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Json {
        Json::Num(n as f64)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(v: Option<T>) -> Json {
        v.map_or(Json::Null, Into::into)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(v: Vec<T>) -> Json {
        Json::Arr(v.into_iter().map(Into::into).collect())
    }
}

/// An object from its keys and values: `obj([("a", 1.into())])`.
pub fn obj<const N: usize>(kv: [(&str, Json); N]) -> Json {
    Json::Obj(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// Parses one JSON text (one line of a JSON lines file).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value(0)?;
    p.blank();
    if p.i != p.s.len() {
        return Err(format!("JSON: unexpected text at byte {}", p.i));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn blank(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("JSON: {} at byte {}", what, self.i))
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 64 {
            return self.fail("nesting too deep");
        }
        self.blank();
        match self.s.get(self.i) {
            None => self.fail("unexpected end"),
            Some(b'{') => {
                self.i += 1;
                let mut kv = Vec::new();
                self.blank();
                if self.eat("}") {
                    return Ok(Json::Obj(kv));
                }
                loop {
                    self.blank();
                    let Json::Str(k) = self.string()? else { unreachable!() };
                    self.blank();
                    if !self.eat(":") {
                        return self.fail("expected ':'");
                    }
                    kv.push((k, self.value(depth + 1)?));
                    self.blank();
                    if self.eat("}") {
                        return Ok(Json::Obj(kv));
                    }
                    if !self.eat(",") {
                        return self.fail("expected ',' or '}'");
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.blank();
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.blank();
                    if self.eat("]") {
                        return Ok(Json::Arr(items));
                    }
                    if !self.eat(",") {
                        return self.fail("expected ',' or ']'");
                    }
                }
            }
            Some(b'"') => self.string(),
            Some(_) if self.eat("null") => Ok(Json::Null),
            Some(_) if self.eat("true") => Ok(Json::Bool(true)),
            Some(_) if self.eat("false") => Ok(Json::Bool(false)),
            Some(_) => {
                let start = self.i;
                while self.s.get(self.i).is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c)) {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                match text.parse::<f64>() {
                    Ok(n) if !text.is_empty() => Ok(Json::Num(n)),
                    _ => self.fail("expected a value"),
                }
            }
        }
    }

    fn string(&mut self) -> Result<Json, String> {
        if !self.eat("\"") {
            return self.fail("expected a string");
        }
        let mut out = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return self.fail("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map(Json::Str).or_else(|_| self.fail("invalid UTF-8"));
                }
                Some(b'\\') => {
                    let esc = self.s.get(self.i + 1).copied();
                    self.i += 2;
                    let c = match esc {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => {
                            let hex = self.s.get(self.i..self.i + 4).and_then(|h| std::str::from_utf8(h).ok());
                            let code = hex.and_then(|h| u32::from_str_radix(h, 16).ok());
                            self.i += 4;
                            // A surrogate (outside what the match writes) becomes U+FFFD.
                            code.map(|c| char::from_u32(c).unwrap_or('\u{fffd}')).ok_or("JSON: bad \\u escape")?
                        }
                        _ => return self.fail("bad escape"),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(&c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_match_writes() {
        let v = parse(r#"{"a":[1,-2.5,null,true],"b":"x\"y\\z\n\u00e9","c":{},"d":[]}"#).unwrap();
        assert_eq!(v.get("a").and_then(Json::arr).map(|a| a.len()), Some(4));
        assert_eq!(v.get("a").unwrap().arr().unwrap()[1], Json::Num(-2.5));
        assert_eq!(v.get("b").and_then(Json::str), Some("x\"y\\z\né"));
        assert_eq!(v.get("c"), Some(&Json::Obj(vec![])));
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "\"abc", "01x", "[1] 2", "tru"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Json::Num(5120.0).u64(), Some(5120));
        assert_eq!(Json::Num(-1.0).u64(), None);
    }
}
