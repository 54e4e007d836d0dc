//! Reading the whole input, cutting it into lines and parsing each.
//!
//! The input is read at once (not line by line) so that all lines can be parsed in parallel and every
//! valid pair computed as one batch; a million short lines are a few hundred megabytes at most.
//!
//! The rules, so that output line N always answers input line N: lines end at `\n` (a `\r` before it is
//! dropped), and the newline that ends the last line does not start another; a UTF-8 byte order mark at
//! the start of a line is skipped (files joined with `cat` keep theirs); a blank line (nothing but spaces,
//! tabs and carriage returns) is answered by a blank line and is not an error; every other line is a pair or an error.

use super::exec::Executor;
use super::parse::{parse_line, PairInput};
use anyhow::Context;
use std::io::Read;
use std::path::Path;

/// Reads `path`, or stdin when it is `-`.
pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        Ok(bytes)
    } else {
        std::fs::read(path).with_context(|| format!("cannot read input file {}", path.display()))
    }
}

/// The UTF-8 encoding of U+FEFF, which some editors write at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The lines of `text`, without their `\n` or `\r\n` and without a byte order mark at their start. Every
/// line counts, blank ones included, so output line N answers input line N; only the newline that ends
/// the last line does not start another one.
pub fn split_lines(text: &[u8]) -> Vec<&[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .map(|line| line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line))
        .collect()
}

/// What one input line holds.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "nearly every line is a pair: boxing it would add an allocation per line to save space on the few blank or bad ones"
)]
pub enum ParsedLine {
    /// Nothing but spaces, tabs and carriage returns: answered by a blank line.
    Blank,
    Pair(PairInput),
    /// The message, starting with `line N: ` (1-based), as the output line and stderr show it.
    Error(String),
}

/// Cuts `text` into lines and parses each, in order (in parallel unless `exec` is single-threaded).
pub fn parse_input(text: &[u8], exec: &Executor) -> Vec<ParsedLine> {
    let lines: Vec<(usize, &[u8])> = split_lines(text).into_iter().enumerate().collect();
    exec.map(&lines, |&(index, line)| {
        if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            return ParsedLine::Blank;
        }
        match parse_line(line) {
            Ok(pair) => ParsedLine::Pair(pair),
            Err(message) => ParsedLine::Error(format!("line {}: {message}", index + 1)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_newline_does_not_add_a_line() {
        assert!(split_lines(b"").is_empty());
        assert_eq!(split_lines(b"x"), vec![&b"x"[..]]);
        assert_eq!(split_lines(b"x\n"), vec![&b"x"[..]]);
        assert_eq!(split_lines(b"x\r\ny\r\n"), vec![&b"x"[..], &b"y"[..]]);
    }

    #[test]
    fn byte_order_marks_are_skipped_at_the_start_of_each_line() {
        assert_eq!(
            split_lines(b"\xEF\xBB\xBFx\r\n\xEF\xBB\xBFy"),
            vec![&b"x"[..], &b"y"[..]]
        );
        // Elsewhere it is part of the line (and not JSON).
        assert_eq!(split_lines(b"x\xEF\xBB\xBF"), vec![&b"x\xEF\xBB\xBF"[..]]);
    }

    #[test]
    fn blank_lines_are_answered_blank_and_errors_name_their_line() {
        let exec = Executor::new(crate::batch::Threads::Single).unwrap();
        let point = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#;
        let text = format!("{point}\n\n \t\r\n{{\n{point}\n");
        let parsed = parse_input(text.as_bytes(), &exec);
        assert_eq!(parsed.len(), 5);
        assert!(matches!(parsed[0], ParsedLine::Pair(_)));
        assert_eq!(parsed[1], ParsedLine::Blank);
        assert_eq!(parsed[2], ParsedLine::Blank);
        assert!(
            matches!(&parsed[3], ParsedLine::Error(m) if m.starts_with("line 4: not JSON: ")),
            "{:?}",
            parsed[3]
        );
        assert!(matches!(parsed[4], ParsedLine::Pair(_)));
    }

    #[test]
    fn blank_lines_are_kept() {
        assert_eq!(split_lines(b"\n"), vec![&b""[..]]);
        assert_eq!(split_lines(b"x\n\n"), vec![&b"x"[..], &b""[..]]);
        assert_eq!(
            split_lines(b"x\n  \ny"),
            vec![&b"x"[..], &b"  "[..], &b"y"[..]]
        );
    }
}
