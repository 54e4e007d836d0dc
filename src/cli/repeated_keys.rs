//! JSON lets an object give one key twice and leaves what that means to the reader; serde_json keeps the
//! last value. A line that gave a shape's `radius` twice (`"radius": -1, "radius": 2`) was answered with the
//! second and the first was never checked (found by a hostile-input audit). What a line means must not
//! depend on which of two values a reader keeps, so such a line is refused, naming the key.
//!
//! Only the field-by-field reader asks: the typed fast path already leaves any line with a repeated key to
//! it, so good lines never pay for this walk.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The path (`a.radius`, `b.points[2]`) of the first key given twice in one object of `line`, in reading
/// order; `None` when there is none or the line is not JSON (its own error is reported then).
pub fn first_repeated_key(line: &[u8]) -> Option<String> {
    let mut found = None;
    let mut reader = serde_json::Deserializer::from_slice(line);
    let walk = Walk {
        path: String::new(),
        found: &mut found,
    };
    walk.deserialize(&mut reader).ok()?;
    found
}

/// One value of the line at `path`, walked for repeated keys; the first one found goes to `found`.
struct Walk<'f> {
    path: String,
    found: &'f mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<(), D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let item = Walk {
                path: format!("{}[{i}]", self.path),
                found: &mut *self.found,
            };
            if items.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = entries.next_key::<String>()? {
            let path = match self.path.is_empty() {
                true => key.clone(),
                false => format!("{}.{key}", self.path),
            };
            if self.found.is_some() {
                entries.next_value::<IgnoredAny>()?;
                continue;
            }
            if keys.contains(&key) {
                *self.found = Some(path);
                entries.next_value::<IgnoredAny>()?;
                continue;
            }
            keys.push(key);
            entries.next_value_seed(Walk {
                path,
                found: &mut *self.found,
            })?;
        }
        Ok(())
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
}
