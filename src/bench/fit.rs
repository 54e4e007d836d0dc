//! The report fitted to a terminal's width: a line longer than [`REPORT_COLUMNS`] is broken at spaces, its
//! continuation indented under it, so `bench` reads in 100 columns; `--wide` writes the lines whole.

use std::io::{self, Write};

/// The width the report fits by default.
pub const REPORT_COLUMNS: usize = 100;

/// `line` (without its newline) broken at spaces into lines of at most `width` characters, each
/// continuation indented two spaces past the line's own indent; a word longer than a line is cut.
pub fn fit_line(line: &str, width: usize) -> String {
    if line.chars().count() <= width {
        return line.to_string();
    }
    let indent = line.len() - line.trim_start_matches(' ').len() + 2;
    let mut out = String::new();
    let mut rest: Vec<char> = line.chars().collect();
    let mut first = true;
    loop {
        let lead = if first { 0 } else { indent };
        let room = width.saturating_sub(lead).max(1);
        if !first {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
        }
        if rest.len() <= room {
            out.extend(rest);
            return out;
        }
        // The last space that leaves the line within `room`, past any indent of its own.
        let start = rest.iter().position(|&c| c != ' ').unwrap_or(0);
        let cut = (start + 1..=room)
            .rev()
            .find(|&k| rest[k] == ' ')
            .unwrap_or(room);
        out.extend(&rest[..cut]);
        let skip = rest[cut..].iter().take_while(|&&c| c == ' ').count();
        rest.drain(..cut + skip);
        first = false;
        if rest.is_empty() {
            return out;
        }
    }
}

/// A writer that fits each whole line written through it to `width` ([`fit_line`]); `None` passes the
/// lines through whole. A line is written when its newline is; what is left without one, on drop.
pub struct FitWriter<W: Write> {
    inner: W,
    width: Option<usize>,
    pending: Vec<u8>,
}

impl<W: Write> FitWriter<W> {
    pub fn new(inner: W, width: Option<usize>) -> Self {
        Self {
            inner,
            width,
            pending: Vec::new(),
        }
    }

    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        match self.width {
            Some(width) => {
                let text = String::from_utf8_lossy(line);
                self.inner.write_all(fit_line(&text, width).as_bytes())
            }
            None => self.inner.write_all(line),
        }
    }
}

impl<W: Write> Write for FitWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.width.is_none() {
            return self.inner.write(bytes);
        }
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.write_line(&line[..end])?;
            self.inner.write_all(b"\n")?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for FitWriter<W> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            let _ = self.write_line(&line);
            let _ = self.inner.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_break_at_spaces_under_their_indent() {
        assert_eq!(fit_line("short", 10), "short");
        assert_eq!(fit_line("aaa bbb ccc ddd", 8), "aaa bbb\n  ccc\n  ddd");
        assert_eq!(fit_line("  aaa bbb ccc", 9), "  aaa bbb\n    ccc");
        // A word longer than the line is cut.
        assert_eq!(fit_line("abcdefghij", 4), "abcd\n  ef\n  gh\n  ij");
        let long = "word ".repeat(60);
        for line in fit_line(long.trim_end(), 100).lines() {
            assert!(line.chars().count() <= 100, "{line}");
        }
    }

    #[test]
    fn the_writer_fits_whole_lines_and_passes_them_whole_when_wide() {
        let mut out = Vec::new();
        {
            let mut w = FitWriter::new(&mut out, Some(8));
            w.write_all(b"aaa bbb ").unwrap();
            w.write_all(b"ccc\nok\n").unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "aaa bbb\n  ccc\nok\n");
        let mut out = Vec::new();
        FitWriter::new(&mut out, None)
            .write_all(b"aaa bbb ccc\n")
            .unwrap();
        assert_eq!(out, b"aaa bbb ccc\n");
    }
}
