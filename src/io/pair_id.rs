//! A caller's key for a pair: `"id"` on a JSON Lines line, an `id` column in a pairs table, echoed with the
//! pair's answer (first on its answer line, an `id` column in the answers table) so answers join back to
//! their pairs without counting lines. An id is an integer or a string; ids need not be unique.

use serde::{Serialize, Serializer};
use serde_json::Value;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PairId {
    /// An integer from -2^63 to 2^63 - 1 (a JSON integer, an `int64` column).
    Int(i64),
    /// A JSON integer above 2^63 - 1 (up to 2^64 - 1), or any value of a `uint64` column.
    UInt(u64),
    /// A JSON string, a `utf8` or `large_utf8` column.
    Text(Arc<str>),
}

/// What an id may be, for messages.
pub const ID_KINDS: &str = "a string or an integer from -2^63 to 2^64 - 1";

impl PairId {
    /// The id of a JSON line's `"id"` value (`what` names the value when it is not one: `a number 7.5`,
    /// `a boolean`); `Err` holds the message without the field's name.
    pub fn from_json(value: &Value, what: impl FnOnce(&Value) -> String) -> Result<Self, String> {
        let id = match value {
            Value::String(text) => Some(PairId::Text(text.as_str().into())),
            Value::Number(n) => n
                .as_i64()
                .map(PairId::Int)
                .or_else(|| n.as_u64().map(PairId::UInt)),
            _ => None,
        };
        id.ok_or_else(|| format!("expected {ID_KINDS}, got {}", what(value)))
    }

    /// Appends the id as JSON (a number, or a string escaped as serde_json escapes it).
    pub fn push_json(&self, out: &mut Vec<u8>) {
        match self {
            PairId::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
            PairId::UInt(n) => out.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
            PairId::Text(text) => {
                serde_json::to_writer(&mut *out, &**text).expect("a string serialises into memory")
            }
        }
    }
}

impl Serialize for PairId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PairId::Int(n) => s.serialize_i64(*n),
            PairId::UInt(n) => s.serialize_u64(*n),
            PairId::Text(text) => s.serialize_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id(value: Value) -> Result<PairId, String> {
        PairId::from_json(&value, |v| v.to_string())
    }

    #[test]
    fn integers_and_strings_are_ids_and_nothing_else_is() {
        assert_eq!(id(json!(7)), Ok(PairId::Int(7)));
        assert_eq!(id(json!(-7)), Ok(PairId::Int(-7)));
        assert_eq!(id(json!(u64::MAX)), Ok(PairId::UInt(u64::MAX)));
        assert_eq!(id(json!("pair-7")), Ok(PairId::Text("pair-7".into())));
        for bad in [
            json!(7.5),
            json!(1e3),
            json!(true),
            json!(null),
            json!([1]),
            json!({}),
        ] {
            let message = id(bad.clone()).unwrap_err();
            assert!(
                message.starts_with("expected a string or an integer"),
                "{bad}: {message}"
            );
        }
    }

    #[test]
    fn ids_are_written_as_json_writes_them() {
        for value in [
            json!(0),
            json!(-9223372036854775808i64),
            json!(u64::MAX),
            json!("a \"b\"\n\u{1}é"),
        ] {
            let mut out = Vec::new();
            id(value.clone()).unwrap().push_json(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), value.to_string());
            assert_eq!(
                serde_json::to_string(&id(value.clone()).unwrap()).unwrap(),
                value.to_string()
            );
        }
    }
}
