//! JSON for the requests and answers of `tetrarch gui`: serde_json's values, and a short way to
//! build an object.

pub use serde_json::Value as Json;

/// An object from its keys and values: `obj([("a", 1.into())])`.
pub fn obj<const N: usize>(kv: [(&str, Json); N]) -> Json {
    Json::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// Parses one JSON text.
pub fn parse(text: &str) -> Result<Json, String> {
    serde_json::from_str(text).map_err(|e| format!("JSON: {}", e))
}
