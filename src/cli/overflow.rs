//! JSON numbers too large for f64 (`1e999`): serde_json refuses the whole document ("number out of
//! range") instead of yielding infinity, so the error could not say which field was wrong. Here each such
//! number is replaced by a marker string that keeps its text, and the document is parsed again; the line
//! parser then reports the marker as a non-finite number at its field path. A marker in a field nobody
//! reads (an unknown field) is ignored like the rest of that field.

use serde_json::Value;

/// Prefix of a marker string. It starts with NUL so that it cannot be mistaken for ordinary text; a user
/// who writes such a string in a number's place gets an error on that field either way.
const MARKER: &str = "\u{0}overflow:";

/// Parses one line, turning each out-of-range number into a marker string (see [`overflowed`]).
/// Errors other than out-of-range numbers are returned with their column in the original line.
pub fn parse_value(line: &[u8]) -> Result<Value, ParseError> {
    let mut buf: Option<Vec<u8>> = None;
    // Bytes added by the replacements so far; later errors lie to their right, so one shift fixes them.
    let mut shift: isize = 0;
    loop {
        let text = buf.as_deref().unwrap_or(line);
        let err = match serde_json::from_slice::<Value>(text) {
            Ok(value) => return Ok(value),
            Err(err) => err,
        };
        let original_column = (err.column() as isize - shift).max(0) as usize;
        let Some((start, end)) = out_of_range_token(&err, text) else {
            return Err(ParseError::new(&err, original_column));
        };
        let token = String::from_utf8_lossy(&text[start..end]).into_owned();
        let replacement = serde_json::to_string(&format!("{MARKER}{token}"))
            .expect("serialising a string cannot fail");
        shift += replacement.len() as isize - (end - start) as isize;
        let mut next = text[..start].to_vec();
        next.extend_from_slice(replacement.as_bytes());
        next.extend_from_slice(&text[end..]);
        buf = Some(next);
    }
}

/// The original text of a number that overflowed f64, if `value` is a marker left by [`parse_value`].
pub fn overflowed(value: &Value) -> Option<&str> {
    match value {
        Value::String(s) => s.strip_prefix(MARKER),
        _ => None,
    }
}

/// A syntax error, described without serde_json's "line 1" (every input line is parsed on its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub column: usize,
}

impl ParseError {
    fn new(err: &serde_json::Error, column: usize) -> Self {
        let mut message = err.to_string();
        if let Some(at) = message.rfind(" at line ") {
            message.truncate(at);
        }
        Self { message, column }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at column {}", self.message, self.column)
    }
}

/// The byte range of the number an out-of-range error points at. serde_json reports the column just past
/// the number, or inside it for absurd exponents, so the search starts one byte to the left.
fn out_of_range_token(err: &serde_json::Error, text: &[u8]) -> Option<(usize, usize)> {
    if !err.to_string().starts_with("number out of range") {
        return None;
    }
    let is_number_byte =
        |b: u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    let column = err.column().min(text.len());
    let inside = [column.checked_sub(1), Some(column)]
        .into_iter()
        .flatten()
        .find(|&i| i < text.len() && is_number_byte(text[i]))?;
    let start = (0..=inside)
        .rev()
        .take_while(|&i| is_number_byte(text[i]))
        .last()?;
    let end = (inside..text.len())
        .find(|&i| !is_number_byte(text[i]))
        .unwrap_or(text.len());
    Some((start, end))
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
    fn tiny_numbers_underflow_to_zero_without_error() {
        let v = parse_value(b"[1e-999]").unwrap();
        assert_eq!(v[0].as_f64(), Some(0.0));
    }

    #[test]
    fn other_errors_keep_their_original_column() {
        let err = parse_value(b"[NaN]").unwrap_err();
        assert_eq!(err.message, "expected value");
        assert_eq!(err.column, 2);
        // After a replacement the column still refers to the line as written.
        let err = parse_value(b"[1e999, x]").unwrap_err();
        assert_eq!(err.column, 9, "{err}");
    }
}
