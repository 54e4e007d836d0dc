//! Reading one line as a JSON value, with errors serde_json alone cannot place.
//!
//! JSON numbers too large for f64 (`1e999`): serde_json refuses the whole document ("number out of range")
//! instead of yielding infinity, so the error could not say which field was wrong. Here, when that happens,
//! one pass over the line replaces every such number by a marker string that keeps its text, and the line
//! is parsed once more (so the work is linear in the line, however many numbers overflow); the line parser
//! then reports the marker as an overflowing number at its field path. Syntax errors inside a number
//! (`1e999e5`, `1e5e5`) are named as malformed numbers, and a nesting too deep for serde_json's recursion
//! limit is reported with the object keys that lead to it.
//!
//! Numbers too small for f64 (`1e-400`, not zero as written): serde_json reads them as 0 without a word,
//! which would let through, as 0, a coordinate that `1e-46` (also below float32's range) is refused for.
//! A line that holds one ([`first_vanishing_number`], a vectorised search for `e-` first) is rewritten the
//! same way, with a second kind of marker ([`vanished`]), so the line parser can name the field.

use super::lexical::{
    first_vanishing_number, is_json_number, is_number_byte, keys_at, number_token_at,
    overflows_f64, shorten, string_end, vanishes_in_f64,
};
use serde_json::Value;

/// Prefix of a marker string for a number beyond f64. It starts with NUL so that it cannot be mistaken for
/// ordinary text; a user who writes such a string in a number's place gets an error on that field either
/// way.
const MARKER: &str = "\u{0}overflow:";

/// Prefix of a marker string for a number other than 0 that f64 reads as 0 (see [`MARKER`]).
const VANISHED_MARKER: &str = "\u{0}vanished:";

/// The most characters of a number a message repeats.
pub const MAX_TOKEN_CHARS: usize = 40;

/// Why a line is not a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxError {
    /// serde_json's message (without its "line 1") and the 1-based byte column in the line as written.
    Invalid { message: String, column: usize },
    /// A number token that JSON's grammar does not allow, as written.
    MalformedNumber { token: String, column: usize },
    /// More levels of arrays and objects than serde_json's recursion limit (128), with the object keys on
    /// the way to the first level too many.
    TooDeep { keys: Vec<String> },
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SyntaxError::Invalid { message, column } => write!(f, "{message} at column {column}"),
            SyntaxError::MalformedNumber { token, column } => {
                write!(f, "malformed number `{token}` at column {column}")
            }
            SyntaxError::TooDeep { .. } => f.write_str("nested more than 128 levels deep"),
        }
    }
}

/// Parses one line, turning each out-of-range number into a marker string (see [`overflowed`]).
pub fn parse_value(line: &[u8]) -> Result<Value, SyntaxError> {
    match serde_json::from_slice::<Value>(line) {
        Ok(value) if first_vanishing_number(line).is_none() => return Ok(value),
        Ok(_) => {}
        Err(err) if is_out_of_range(&err) => {}
        Err(err) => return Err(explain(&err, line, |column| column)),
    }
    let rewritten = Rewritten::replacing_out_of_range(line);
    serde_json::from_slice::<Value>(&rewritten.text)
        .map_err(|err| explain(&err, line, |column| rewritten.original_column(column)))
}

/// The original text of a number that overflowed f64, if `value` is a marker left by [`parse_value`].
pub fn overflowed(value: &Value) -> Option<&str> {
    match value {
        Value::String(s) => s.strip_prefix(MARKER),
        _ => None,
    }
}

/// The original text of a number other than 0 that f64 reads as 0, if `value` is a marker left by
/// [`parse_value`].
pub fn vanished(value: &Value) -> Option<&str> {
    match value {
        Value::String(s) => s.strip_prefix(VANISHED_MARKER),
        _ => None,
    }
}

fn is_out_of_range(err: &serde_json::Error) -> bool {
    err.to_string().starts_with("number out of range")
}

/// serde_json's error in terms of the line as written; `to_original` maps a column of the text that was
/// parsed back to the line.
fn explain(
    err: &serde_json::Error,
    line: &[u8],
    to_original: impl Fn(usize) -> usize,
) -> SyntaxError {
    let column = to_original(err.column());
    let message = err.to_string();
    if message.starts_with("recursion limit exceeded") {
        return SyntaxError::TooDeep {
            keys: keys_at(line, column),
        };
    }
    // serde_json's column is the 1-based byte it stopped at, inside or just past a number.
    let at = column.saturating_sub(1);
    if let Some((start, end)) = number_token_at(line, at) {
        let token = &line[start..end];
        if !is_json_number(token) {
            return SyntaxError::MalformedNumber {
                token: shorten(&String::from_utf8_lossy(token), MAX_TOKEN_CHARS),
                column: start + 1,
            };
        }
    }
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    SyntaxError::Invalid { message, column }
}

/// A line with every number that overflows or vanishes in f64 replaced by a marker string, and where the
/// replacements are.
struct Rewritten {
    text: Vec<u8>,
    /// For each replacement: its end in `text` and the bytes added up to and including it.
    shifts: Vec<(usize, isize)>,
}

impl Rewritten {
    fn replacing_out_of_range(line: &[u8]) -> Self {
        let mut text = Vec::with_capacity(line.len() + 64);
        let mut shifts = Vec::new();
        let mut shift: isize = 0;
        let mut i = 0;
        while i < line.len() {
            let b = line[i];
            if b == b'"' {
                let end = string_end(line, i);
                text.extend_from_slice(&line[i..end]);
                i = end;
            } else if b == b'-' || b.is_ascii_digit() {
                let end = i + line[i..].iter().take_while(|&&b| is_number_byte(b)).count();
                let token = &line[i..end];
                let kind = if overflows_f64(token) {
                    Some(MARKER)
                } else if vanishes_in_f64(token) {
                    Some(VANISHED_MARKER)
                } else {
                    None
                };
                if let Some(kind) = kind {
                    let marker =
                        serde_json::to_string(&format!("{kind}{}", String::from_utf8_lossy(token)))
                            .expect("serialising a string cannot fail");
                    text.extend_from_slice(marker.as_bytes());
                    shift += marker.len() as isize - token.len() as isize;
                    shifts.push((text.len(), shift));
                } else {
                    text.extend_from_slice(token);
                }
                i = end;
            } else {
                text.push(b);
                i += 1;
            }
        }
        Self { text, shifts }
    }

    /// The column in the original line of 1-based `column` in the rewritten text.
    fn original_column(&self, column: usize) -> usize {
        let before = self.shifts.partition_point(|&(end, _)| end < column);
        let shift = before.checked_sub(1).map_or(0, |k| self.shifts[k].1);
        (column as isize - shift).max(1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_numbers_become_markers_with_their_text() {
        let v = parse_value(br#"{"x": [1e999, -2e400, 3], "y": 123456e99999999999}"#).unwrap();
        assert_eq!(overflowed(&v["x"][0]), Some("1e999"));
        assert_eq!(overflowed(&v["x"][1]), Some("-2e400"));
        assert_eq!(v["x"][2], 3);
        assert_eq!(overflowed(&v["y"]), Some("123456e99999999999"));
    }

    #[test]
    fn huge_integer_without_exponent_overflows_too() {
        let digits = "9".repeat(400);
        let v = parse_value(format!("[{digits}]").as_bytes()).unwrap();
        assert_eq!(overflowed(&v[0]), Some(digits.as_str()));
    }

    #[test]
    fn numbers_that_vanish_in_f64_become_markers_with_their_text() {
        let v = parse_value(br#"{"x": [1e-999, 0e-999, 1e-300, 2e999], "y": [-4E-400, x]}"#)
            .unwrap_err();
        // The syntax error after them is still placed in the line as written.
        assert_eq!(v.to_string(), "expected value at column 55");
        let v = parse_value(br#"{"x": [1e-999, 0e-999, 1e-300, 2e999], "y": -4E-400}"#).unwrap();
        assert_eq!(vanished(&v["x"][0]), Some("1e-999"));
        assert_eq!(v["x"][1].as_f64(), Some(0.0));
        assert_eq!(v["x"][2].as_f64(), Some(1e-300));
        assert_eq!(overflowed(&v["x"][3]), Some("2e999"));
        assert_eq!(vanished(&v["y"]), Some("-4E-400"));
        assert_eq!(overflowed(&v["y"]), None);
    }

    #[test]
    fn numbers_inside_strings_are_left_alone() {
        let v = parse_value(br#"["1e999", 1e999, "\"1e999"]"#).unwrap();
        assert_eq!(v[0], "1e999");
        assert_eq!(overflowed(&v[1]), Some("1e999"));
        assert_eq!(v[2], "\"1e999");
    }

    #[test]
    fn other_errors_keep_their_original_column() {
        let err = parse_value(b"[NaN]").unwrap_err();
        assert_eq!(
            err,
            SyntaxError::Invalid {
                message: "expected value".into(),
                column: 2
            }
        );
        // After a replacement the column still refers to the line as written.
        let err = parse_value(b"[1e999, x]").unwrap_err();
        assert_eq!(err.to_string(), "expected value at column 9");
        let err = parse_value(b"[1e999, 1e999, 1e999, x]").unwrap_err();
        assert_eq!(err.to_string(), "expected value at column 23");
    }

    #[test]
    fn malformed_numbers_are_named_as_written() {
        for (line, token, column) in [
            (&b"[1e999e5]"[..], "1e999e5", 2),
            (b"[0, 1e5e5]", "1e5e5", 5),
            (b"[1e999, 2e999e]", "2e999e", 9),
            (b"[01]", "01", 2),
            (b"[-]", "-", 2),
        ] {
            assert_eq!(
                parse_value(line).unwrap_err(),
                SyntaxError::MalformedNumber {
                    token: token.into(),
                    column
                },
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let line = format!("[1{}e5e5]", "0".repeat(1000));
        let SyntaxError::MalformedNumber { token, .. } = parse_value(line.as_bytes()).unwrap_err()
        else {
            panic!("not a malformed number");
        };
        assert_eq!(token, format!("1{}...", "0".repeat(MAX_TOKEN_CHARS - 1)));
    }

    #[test]
    fn deep_nesting_names_the_keys_that_lead_to_it() {
        let line = format!(r#"{{"a": {{"extra": {}}}}}"#, "[".repeat(300));
        assert_eq!(
            parse_value(line.as_bytes()).unwrap_err(),
            SyntaxError::TooDeep {
                keys: vec!["a".into(), "extra".into()]
            }
        );
    }
}
