//! JSON lets an object give one key twice and leaves what that means to the reader; serde_json keeps the
//! last value. A line that gave a shape's `radius` twice (`"radius": -1, "radius": 2`) was answered with the
//! second and the first was never checked (found by a hostile-input audit). What a line means must not
//! depend on which of two values a reader keeps, so such a line is refused, naming the key.
//!
//! Only the field-by-field reader asks: the typed fast path already leaves any line with a repeated key to
//! it, so good lines never pay for this walk.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// The path (`a.radius`, `b.points[2]`) of the first key given twice in one object of `line`, in reading
/// order; `None` when there is none or the line is not JSON (its own error is reported then).
pub fn first_repeated_key(line: &[u8]) -> Option<String> {
    read_value(line).ok()?.1
}

/// `line` as serde_json reads it (a repeated key keeps its last value), with [`first_repeated_key`]'s
/// answer, in one pass: `convert` reads every line so, and a second walk over the line for the repeated
/// keys alone doubled its time.
pub fn read_value(line: &[u8]) -> serde_json::Result<(Value, Option<String>)> {
    let mut found = None;
    let mut path = Vec::new();
    let mut reader = serde_json::Deserializer::from_slice(line);
    let walk = Walk {
        path: &mut path,
        found: &mut found,
    };
    let value = walk.deserialize(&mut reader)?;
    reader.end()?;
    Ok((value, found))
}

/// A step of the path to the value being read: a key, or an index into an array. Kept as steps, not text,
/// so that a path is written only for the key found repeated.
enum Step {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Step]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) if text.is_empty() => text.push_str(key),
            Step::Key(key) => {
                text.push('.');
                text.push_str(key);
            }
            Step::Index(i) => text.push_str(&format!("[{i}]")),
        }
    }
    text
}

/// One value of the line, read at `path`; the first repeated key found goes to `found`.
struct Walk<'p> {
    path: &'p mut Vec<Step>,
    found: &'p mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<Value, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, x: i64) -> Result<Value, E> {
        Ok(Value::from(x))
    }

    fn visit_u64<E>(self, x: u64) -> Result<Value, E> {
        Ok(Value::from(x))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::from(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut values = Vec::new();
        loop {
            self.path.push(Step::Index(values.len()));
            let item = Walk {
                path: &mut *self.path,
                found: &mut *self.found,
            };
            let value = items.next_element_seed(item);
            self.path.pop();
            match value? {
                Some(value) => values.push(value),
                None => return Ok(Value::Array(values)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let repeated = self.found.is_none() && map.contains_key(&key);
            self.path.push(Step::Key(key));
            if repeated {
                *self.found = Some(path_text(self.path));
            }
            let value = entries.next_value_seed(Walk {
                path: &mut *self.path,
                found: &mut *self.found,
            });
            let Some(Step::Key(key)) = self.path.pop() else {
                unreachable!("the key pushed above");
            };
            map.insert(key, value?);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_key_given_twice_is_named_with_its_path() {
        for (line, expected) in [
            (
                r#"{"a": {"points": [[0,0,0]], "radius": -1, "radius": 2}}"#,
                Some("a.radius"),
            ),
            (
                r#"{"a": {"points": [[9,9,9]]}, "a": {"points": [[0,0,0]]}}"#,
                Some("a"),
            ),
            (
                r#"{"b": {"points": [[0,0,0]], "points": [[1,1,1]]}, "b": 1}"#,
                Some("b.points"),
            ),
            (r#"{"x": [{"k": 1}, {"k": 2, "k": 3}]}"#, Some("x[1].k")),
            (
                r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]]}}"#,
                None,
            ),
            // An escaped key is the same key.
            (r#"{"a": 1, "\u0061": 2}"#, Some("a")),
            (r#"{"a": 1, "a": "#, None),
            ("not json", None),
        ] {
            assert_eq!(
                first_repeated_key(line.as_bytes()).as_deref(),
                expected,
                "{line}"
            );
        }
    }

    #[test]
    fn the_value_read_is_serde_jsons() {
        for line in [
            r#"{"a": {"points": [[0,-0.5,1e-7],[1e300,-3,18446744073709551615]], "radius": 2}, "b": null}"#,
            r#"{"a": 1, "a": [true, false, "x\u00e9"], "c": {"d": {}}, "e": []}"#,
            r#"[1, 2.5, -9223372036854775808]"#,
        ] {
            let (value, _) = read_value(line.as_bytes()).unwrap();
            assert_eq!(
                value,
                serde_json::from_str::<Value>(line).unwrap(),
                "{line}"
            );
        }
        for bad in [r#"{"a": 1} x"#, r#"{"a": "#, "1e999"] {
            assert!(read_value(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
