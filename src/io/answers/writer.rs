//! Answer lines appended to one buffer and handed to the writer 64 KiB at a time: a `BufWriter` with the
//! lines built in place, so a line is not first built elsewhere and then copied in (see
//! [`super::output::push_result`]).

use super::output::{push_error_with_id, push_result_with_id};
use crate::io::pair_id::PairId;
use crate::query::{WorldPenetration, WorldResult};
use std::io::{self, Write};

/// Bytes gathered before a write: as much as the `BufWriter` this replaces held.
const WRITE_BYTES: usize = 1 << 16;

pub struct AnswerWriter<W: Write> {
    out: W,
    pending: Vec<u8>,
}

impl<W: Write> AnswerWriter<W> {
    pub fn new(out: W) -> Self {
        Self {
            out,
            pending: Vec::with_capacity(2 * WRITE_BYTES),
        }
    }

    /// An answer line, the pair's id first when it has one.
    pub fn result(
        &mut self,
        id: Option<&PairId>,
        r: &WorldResult,
        hit: Option<&WorldPenetration>,
    ) -> io::Result<()> {
        push_result_with_id(&mut self.pending, id, r, hit);
        self.write_if_full()
    }

    /// An error line, the pair's id first when it has one.
    pub fn error(&mut self, id: Option<&PairId>, message: &str) -> io::Result<()> {
        push_error_with_id(&mut self.pending, id, message);
        self.write_if_full()
    }

    /// The answer to a blank line: a blank line.
    pub fn blank(&mut self) -> io::Result<()> {
        self.pending.push(b'\n');
        self.write_if_full()
    }

    fn write_if_full(&mut self) -> io::Result<()> {
        if self.pending.len() >= WRITE_BYTES {
            self.write_pending()?;
        }
        Ok(())
    }

    fn write_pending(&mut self) -> io::Result<()> {
        let written = self.out.write_all(&self.pending);
        self.pending.clear();
        written
    }

    /// Writes what is gathered and flushes the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.out.flush()
    }
}

/// As a `BufWriter` does: what is gathered is written when the writer goes away without a flush (a batch cut
/// short by a read error keeps the answers before it), the error ignored, since there is no one left to tell.
impl<W: Write> Drop for AnswerWriter<W> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.out.write_all(&self.pending);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkStatus;
    use crate::io::answers::output::{push_error, push_result};
    use glam::DVec3;

    #[test]
    fn lines_come_out_in_order_across_writes() {
        let r = WorldResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: 1.5,
            witness_a: DVec3::ZERO,
            witness_b: DVec3::X,
            normal: DVec3::X,
            iterations: 2,
        };
        let mut expected = Vec::new();
        let mut writer = AnswerWriter::new(Vec::new());
        // Enough lines for several writes of the gathered bytes.
        for k in 0..4000 {
            match k % 3 {
                0 => {
                    writer.result(None, &r, None).unwrap();
                    push_result(&mut expected, &r, None);
                }
                1 => {
                    writer.error(None, "line 2: bad").unwrap();
                    push_error(&mut expected, "line 2: bad");
                }
                _ => {
                    writer.blank().unwrap();
                    expected.push(b'\n');
                }
            }
        }
        assert!(expected.len() > 3 * WRITE_BYTES);
        writer.flush().unwrap();
        assert_eq!(writer.out, expected);
    }

    #[test]
    fn lines_gathered_are_written_when_the_writer_goes_away() {
        let mut out = Vec::new();
        {
            let mut writer = AnswerWriter::new(&mut out);
            writer.error(None, "line 1: bad").unwrap();
            writer.blank().unwrap();
        }
        assert_eq!(out, b"{\"error\": \"line 1: bad\"}\n\n");
    }
}
