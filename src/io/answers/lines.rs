//! The answer lines of a JSON Lines batch: one output line per input line, in order, each error line also
//! echoed to stderr. Written in one go after the GPU's batch, or block by block as the CPU answers them.

use super::writer::AnswerWriter;
use crate::io::batch::PairAnswer;
use crate::io::jsonl::reader::ParsedLine;
use crate::io::sink::Destination;
use anyhow::Context;
use std::io::{self, BufWriter, Stderr, Write};

pub struct AnswerLines<W: Write> {
    out: AnswerWriter<W>,
    stderr: BufWriter<Stderr>,
    /// How many error lines were written.
    pub failed: usize,
}

impl<W: Write> AnswerLines<W> {
    pub fn new(out: W) -> Self {
        Self {
            out: AnswerWriter::new(out),
            stderr: BufWriter::new(io::stderr()),
            failed: 0,
        }
    }

    /// The lines answering `parsed`; `results` holds the answers of its pairs, in order.
    pub fn write(&mut self, parsed: &[ParsedLine], results: &[PairAnswer]) -> io::Result<()> {
        let mut answers = results.iter();
        for line in parsed {
            match line {
                ParsedLine::Pair(pair) => {
                    let (r, hit) = answers.next().expect("one result per valid line");
                    self.out.result(pair.id.as_ref(), r, hit.as_ref())?;
                }
                ParsedLine::Blank => self.out.blank()?,
                ParsedLine::Error(message) => {
                    self.failed += 1;
                    self.out.error(message.id.as_ref(), message)?;
                    // Best effort: a closed stderr must not stop the results.
                    let _ = writeln!(self.stderr, "{message}");
                }
            }
        }
        Ok(())
    }

    /// Flushes both streams; returns how many error lines there were.
    pub fn finish(mut self) -> io::Result<usize> {
        let _ = self.stderr.flush();
        self.out.flush()?;
        Ok(self.failed)
    }
}

/// Writes one line per input line in order and echoes each error line to stderr; returns how many lines
/// failed. `results` holds the answers of the valid lines, in order.
pub fn write_answer_lines(
    output: &Destination,
    parsed: &[ParsedLine],
    results: &[PairAnswer],
) -> anyhow::Result<usize> {
    let mut lines = AnswerLines::new(output.open()?);
    lines
        .write(parsed, results)
        .and_then(|()| lines.finish())
        .with_context(|| format!("cannot write to {}", output.describe()))
}
