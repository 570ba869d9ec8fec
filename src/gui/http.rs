//! The HTTP side of `tetrarch gui`: what a request asks, who may ask it, and the answers.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::Read;

/// The most a request body may hold (a long record pasted into the page is far less).
const MAX_BODY: usize = 4 << 20;

/// A request as the routes read it.
pub struct Ask {
    pub method: String,
    pub path: String,
    query: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    pub body: String,
}

/// An answer: a status, a content type and a body, and the page's content security policy
/// when the answer is the page.
pub struct Answer {
    pub status: u16,
    pub kind: &'static str,
    pub body: String,
    pub policy: Option<&'static str>,
}

impl Answer {
    pub fn json(v: &impl Serialize) -> Answer {
        match serde_json::to_string(v) {
            Ok(body) => Answer { status: 200, kind: "application/json", body, policy: None },
            Err(e) => Answer::error(500, format!("the answer: {}", e)),
        }
    }
    /// No content: the question no longer applies (204).
    pub fn nothing() -> Answer {
        Answer { status: 204, kind: "application/json", body: String::new(), policy: None }
    }
    pub fn ok() -> Answer {
        Answer::json(&serde_json::json!({"ok": true}))
    }
    /// A refusal with its reason, as JSON: `{"error": "..."}`.
    pub fn error(status: u16, message: impl Into<String>) -> Answer {
        let body = serde_json::json!({"error": message.into()}).to_string();
        Answer { status, kind: "application/json", body, policy: None }
    }
}

/// `%xx` and `+` decoded; anything malformed is kept as it is.
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Ask {
    /// Reads a request of tiny_http, its body included (at most `MAX_BODY` bytes).
    pub fn read(req: &mut tiny_http::Request) -> Result<Ask, String> {
        let url = req.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let query = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (unescape(k), unescape(v))
            })
            .collect();
        let headers = req
            .headers()
            .iter()
            .map(|h| (h.field.as_str().as_str().to_ascii_lowercase(), h.value.as_str().to_string()))
            .collect();
        let mut body = Vec::new();
        req.as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body)
            .map_err(|e| format!("reading the request: {}", e))?;
        if body.len() > MAX_BODY {
            return Err(format!("a request body over {} bytes", MAX_BODY));
        }
        let body = String::from_utf8(body).map_err(|_| "the request body is not UTF-8".to_string())?;
        Ok(Ask { method: req.method().as_str().to_string(), path: path.to_string(), query, headers, body })
    }

    pub fn query(&self, key: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The body, a JSON object, as the request's type.
    pub fn body<T: DeserializeOwned>(&self) -> Result<T, Answer> {
        let bad = |e: serde_json::Error| Answer::error(400, format!("the request body: {}", e));
        match serde_json::from_str::<serde_json::Value>(&self.body).map_err(bad)? {
            v @ serde_json::Value::Object(_) => serde_json::from_value(v).map_err(bad),
            _ => Err(Answer::error(400, "the request body must be a JSON object")),
        }
    }

    /// A number from the query, if given and well formed.
    pub fn query_number(&self, key: &str) -> Result<Option<u64>, Answer> {
        match self.query(key) {
            None => Ok(None),
            Some(v) => {
                v.parse().map(Some).map_err(|_| Answer::error(400, format!("{} must be a number, not '{}'", key, v)))
            }
        }
    }
}

/// Who may ask: the request must name this server by one of its addresses (so a page of another
/// site whose name was made to point here cannot), come from this server's own page (its
/// `Origin`, when the browser sends one), and carry the token, in the `X-Tetrarch-Token` header
/// for anything that changes something, or in the query for the page's own loads and its event
/// stream.
pub struct Guard {
    pub token: String,
    /// The `Host` values that name this server; empty when it listens beyond this machine.
    pub hosts: Vec<String>,
}

impl Guard {
    pub fn check(&self, ask: &Ask) -> Result<(), Answer> {
        let host = ask.header("host").unwrap_or("");
        if !self.hosts.is_empty() && !self.hosts.iter().any(|h| h == host) {
            return Err(Answer::error(403, format!("refused: the request names host '{}', not this server", host)));
        }
        if let Some(origin) = ask.header("origin")
            && origin != format!("http://{}", host)
        {
            return Err(Answer::error(403, format!("refused: a request from another origin ({})", origin)));
        }
        let changes = ask.method != "GET";
        let given = if changes {
            ask.header("x-tetrarch-token")
        } else {
            ask.query("token").or(ask.header("x-tetrarch-token"))
        };
        // Compared in full whatever the first difference, so the time taken tells nothing.
        let same = given.is_some_and(|t| {
            t.len() == self.token.len() && t.bytes().zip(self.token.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
        });
        if !same {
            return Err(Answer::error(
                403,
                if changes {
                    "refused: no valid token (requests that change anything need the page's X-Tetrarch-Token header)"
                } else {
                    "refused: no valid token; open the address that tetrarch gui printed"
                },
            ));
        }
        Ok(())
    }
}

/// A random token: 128 bits from the system's generator, as hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let filled = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes)).is_ok();
    if !filled {
        // Without /dev/urandom: the standard library's per-process random hash keys.
        use std::hash::{BuildHasher, Hasher};
        for chunk in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0),
            );
            h.write_u32(std::process::id());
            chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
        }
    }
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

/// Sends an answer, with the headers every answer carries: no caching, no framing by other
/// pages, no guessing of content types; and the page's policy with the page.
pub fn respond(req: tiny_http::Request, a: Answer) {
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok();
    let mut r = tiny_http::Response::from_string(a.body).with_status_code(a.status);
    for h in [
        header("Content-Type", a.kind),
        header("Cache-Control", "no-store"),
        header("X-Frame-Options", "DENY"),
        header("X-Content-Type-Options", "nosniff"),
        header("Referrer-Policy", "no-referrer"),
        a.policy.and_then(|p| header("Content-Security-Policy", p)),
    ]
    .into_iter()
    .flatten()
    {
        r = r.with_header(h);
    }
    let _ = req.respond(r);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode() {
        assert_eq!(unescape("a%20b+c%2F"), "a b c/");
        assert_eq!(unescape("100%"), "100%");
        assert_eq!(unescape("%zz%4"), "%zz%4");
        assert_eq!(unescape("P%2A3c"), "P*3c");
    }

    #[test]
    fn tokens_are_new_each_time() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
