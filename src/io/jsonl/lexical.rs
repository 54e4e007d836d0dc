//! A byte-level view of one JSON line for the cases serde_json's error cannot explain on its own: which
//! number tokens overflow float64 or vanish in it, which token a syntax error sits in, and the object keys on
//! the way to a byte (to name the field a too-deep nesting is in). Each walk is one linear pass over the line.

/// `text` for a message: at most `max` characters, with `...` when cut (a malformed number can be a
/// megabyte of digits).
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The byte just past the string that opens at `start` (a `"`), escapes skipped; the line's end when the
/// string is not closed.
pub fn string_end(line: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

/// Bytes that can belong to a number token as a reader would delimit it (`1e999e5` is one token).
pub fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
}

/// Whether `token` is a number as JSON writes it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
pub fn is_json_number(token: &[u8]) -> bool {
    let digits = |s: &[u8], from: usize| {
        let n = s[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        (n > 0).then_some(from + n)
    };
    let mut i = usize::from(token.first() == Some(&b'-'));
    i = match token.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(token, i).unwrap_or(i),
        _ => return false,
    };
    if token.get(i) == Some(&b'.') {
        let Some(end) = digits(token, i + 1) else {
            return false;
        };
        i = end;
    }
    if matches!(token.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(token.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let Some(end) = digits(token, i) else {
            return false;
        };
        i = end;
    }
    i == token.len()
}

/// Whether `token`, a JSON number, is not zero as written (a digit 1 to 9 before its exponent) but reads as 0
/// in float64 (`1e-400`, below float64's smallest subnormal): serde_json gives it as 0 without a word, where
/// `1e-46`, also too small for float32, is named and refused.
pub fn vanishes_in_f64(token: &[u8]) -> bool {
    let mantissa = token
        .iter()
        .position(|b| matches!(b, b'e' | b'E'))
        .map_or(token, |e| &token[..e]);
    mantissa.iter().any(|b| matches!(b, b'1'..=b'9')) && f64_value(token) == Some(0.0)
}

/// Whether `token`, a JSON number, is beyond float64 (`1e999`, 400 nines).
pub fn overflows_f64(token: &[u8]) -> bool {
    f64_value(token).is_some_and(f64::is_infinite)
}

/// The float64 value of `token` when it is a JSON number (correctly rounded: infinite beyond float64's
/// range, 0 below it).
fn f64_value(token: &[u8]) -> Option<f64> {
    if !is_json_number(token) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// The text of the first number token outside strings in `line` that [`vanishes_in_f64`], if any. Only a
/// token with a negative exponent can, so a line without `e-` or `E-` (nearly every line) costs one search
/// at memory speed (`memchr`'s vectorised one) and no walk.
pub fn first_vanishing_number(line: &[u8]) -> Option<&[u8]> {
    use memchr::memmem::find;
    find(line, b"e-").or_else(|| find(line, b"E-"))?;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b == b'"' {
            i = string_end(line, i);
        } else if b == b'-' || b.is_ascii_digit() {
            let end = i + line[i..].iter().take_while(|&&b| is_number_byte(b)).count();
            if vanishes_in_f64(&line[i..end]) {
                return Some(&line[i..end]);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

/// The number-like token (a run of [`is_number_byte`] outside strings) that holds byte `at` or ends just
/// before it, as a byte range.
pub fn number_token_at(line: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < line.len() && i <= at {
        let b = line[i];
        if b == b'"' {
            i = string_end(line, i);
        } else if b == b'-' || b.is_ascii_digit() {
            let end = i + line[i..].iter().take_while(|&&b| is_number_byte(b)).count();
            if (i..=end).contains(&at) {
                return Some((i, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

/// The object keys on the path from the top of the line to byte `at` (array levels are skipped): for
/// `{"a": {"pos": [[[` and a byte inside the brackets, `["a", "pos"]`.
pub fn keys_at(line: &[u8], at: usize) -> Vec<String> {
    struct Level {
        object: bool,
        expect_key: bool,
        key: Option<(usize, usize)>,
    }
    let mut levels: Vec<Level> = Vec::new();
    let mut i = 0;
    let end = at.min(line.len());
    while i < end {
        match line[i] {
            b'"' => {
                let close = string_end(line, i);
                if let Some(level) = levels.last_mut().filter(|l| l.object && l.expect_key) {
                    level.key = Some((i + 1, close.saturating_sub(1).max(i + 1)));
                    level.expect_key = false;
                }
                i = close;
                continue;
            }
            open @ (b'{' | b'[') => levels.push(Level {
                object: open == b'{',
                expect_key: open == b'{',
                key: None,
            }),
            b'}' | b']' => {
                levels.pop();
            }
            b',' => {
                if let Some(level) = levels.last_mut().filter(|l| l.object) {
                    level.expect_key = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    levels
        .iter()
        .filter_map(|l| l.key)
        .map(|(s, e)| String::from_utf8_lossy(&line[s..e]).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_number_grammar() {
        for good in ["0", "-0", "12", "1.5", "-1.5e10", "1E+999", "1e-5", "0.0"] {
            assert!(is_json_number(good.as_bytes()), "{good}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e999e5", "+1", "1-", "1.e5", "--1",
        ] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn numbers_that_float64_reads_as_zero_are_found() {
        for vanishing in ["1e-400", "-2.5E-999", "0.0001e-330", "2e-324"] {
            assert!(vanishes_in_f64(vanishing.as_bytes()), "{vanishing}");
        }
        // Zero as written, representable (a subnormal, 5e-324 rounds up to one), too large, or not a number.
        for kept in [
            "0",
            "-0.0e-999",
            "0e-5",
            "5e-324",
            "1e-46",
            "1e999",
            "1e-",
            "x",
        ] {
            assert!(!vanishes_in_f64(kept.as_bytes()), "{kept}");
        }
        let line = br#"{"a": "1e-400", "b": [0e-999, 1e-5, -3e-400, 1e-401]}"#;
        assert_eq!(first_vanishing_number(line), Some(&b"-3e-400"[..]));
        assert_eq!(first_vanishing_number(br#"{"e-": [1, 2.5]}"#), None);
        assert_eq!(first_vanishing_number(b"[1E-999]"), Some(&b"1E-999"[..]));
    }

    #[test]
    fn long_text_is_cut_for_messages() {
        assert_eq!(shorten("1e999", 40), "1e999");
        assert_eq!(shorten(&"9".repeat(100), 4), "9999...");
        assert_eq!(shorten("ééééé", 2), "éé...");
    }

    #[test]
    fn tokens_and_strings() {
        let line = br#"["1e5", 1e999e5, 2]"#;
        assert_eq!(number_token_at(line, 10), Some((8, 15)));
        assert_eq!(number_token_at(line, 15), Some((8, 15)));
        // Inside a string there is no number token.
        assert_eq!(number_token_at(line, 3), None);
        assert_eq!(string_end(br#""a\"b" x"#, 0), 6);
        assert_eq!(string_end(br#""open"#, 0), 5);
    }

    #[test]
    fn keys_on_the_path() {
        let line = br#"{"a": {"points": [[0,0,0]]}, "b": {"p\"os": [[["#;
        assert_eq!(keys_at(line, line.len()), ["b", "p\\\"os"]);
        assert_eq!(keys_at(line, 20), ["a", "points"]);
        assert!(keys_at(line, 0).is_empty());
    }
}
