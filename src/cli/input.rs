//! Reading the whole input and cutting it into lines.
//!
//! The input is read at once (not line by line) so that all lines can be parsed in parallel and every
//! valid pair computed as one batch; a million short lines are a few hundred megabytes at most.

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

/// The lines of `text`, without their `\n` or `\r\n`. Every line counts, blank ones included, so output
/// line N answers input line N; only the newline that ends the last line does not start another one.
pub fn split_lines(text: &[u8]) -> Vec<&[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect()
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
    fn blank_lines_are_kept() {
        assert_eq!(split_lines(b"\n"), vec![&b""[..]]);
        assert_eq!(split_lines(b"x\n\n"), vec![&b"x"[..], &b""[..]]);
        assert_eq!(
            split_lines(b"x\n  \ny"),
            vec![&b"x"[..], &b"  "[..], &b"y"[..]]
        );
    }
}
