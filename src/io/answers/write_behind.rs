//! A JSON Lines batch's answer lines formatted and written on a thread of their own, a block behind the
//! answering, when the batch runs on more than one thread: formatting the floats and the kernel's write were
//! a sixth of a run on the `bench --io` mix, done in turn on the calling thread while the other cores waited.
//!
//! Blocks are written in the order they are handed over, by one [`AnswerLines`], so the output is the same
//! bytes as when the caller writes them itself. The first write error stops the thread; the caller learns of
//! it at its next hand-over (and stops reading) or when it finishes. Dropping the handle waits for the blocks
//! already handed over to be written: a batch cut short by a read error keeps the answers before it.

use super::lines::AnswerLines;
use crate::io::batch::PairAnswer;
use crate::io::jsonl::reader::ParsedLine;
use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// One block: its parsed lines and the answers of its pairs, in order.
type Block = (Vec<ParsedLine>, Vec<PairAnswer>);

/// Blocks waiting for the writer at most: one being answered, one waiting, one being written.
const QUEUED_BLOCKS: usize = 1;

pub struct WriteBehind {
    blocks: Option<SyncSender<Block>>,
    /// Emptied vectors handed back for the next block.
    spares: Receiver<Block>,
    writer: Option<JoinHandle<io::Result<usize>>>,
}

impl WriteBehind {
    /// Starts the writing thread on `out`.
    pub fn start(out: Box<dyn Write + Send>) -> io::Result<Self> {
        let (blocks, to_write) = sync_channel::<Block>(QUEUED_BLOCKS);
        let (give_back, spares) = sync_channel::<Block>(QUEUED_BLOCKS + 1);
        let writer = std::thread::Builder::new()
            .name("gpu-gjk answers".into())
            .spawn(move || {
                let mut lines = AnswerLines::new(out);
                for (mut parsed, mut results) in to_write {
                    lines.write(&parsed, &results)?;
                    parsed.clear();
                    results.clear();
                    let _ = give_back.try_send((parsed, results));
                }
                lines.finish()
            })?;
        Ok(Self {
            blocks: Some(blocks),
            spares,
            writer: Some(writer),
        })
    }

    /// Vectors for the next block: emptied ones handed back by the writer when there are.
    pub fn spare(&self) -> Block {
        self.spares.try_recv().unwrap_or_default()
    }

    /// Hands a block over; `false` when the writer has stopped on an error ([`Self::finish`] says which).
    pub fn write(&self, parsed: Vec<ParsedLine>, results: Vec<PairAnswer>) -> bool {
        let blocks = self.blocks.as_ref().expect("open until finished");
        blocks.send((parsed, results)).is_ok()
    }

    /// Waits for every block to be written and flushed; how many error lines there were, or the first
    /// write error.
    pub fn finish(mut self) -> io::Result<usize> {
        self.join()
    }

    fn join(&mut self) -> io::Result<usize> {
        self.blocks = None;
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(written)) => written,
            Some(Err(_)) => Err(io::Error::other("the answers' writing thread panicked")),
            None => Ok(0),
        }
    }
}

impl Drop for WriteBehind {
    fn drop(&mut self) {
        let _ = self.join();
    }
}
