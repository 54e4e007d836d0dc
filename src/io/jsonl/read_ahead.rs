//! The next block of a JSON Lines input read on a thread of its own while the current block is parsed and
//! answered, when a batch runs on more than one thread: reading is the kernel copying the file out of the page
//! cache (about a sixth of a run on the `bench --io` mix), and done in turn with the parallel work it left the
//! other cores idle.
//!
//! The reader is handed a buffer and the range to fill, fills it and hands it back; the caller keeps the
//! order (one request at a time). The thread is not joined: a caller that stops early (its output closed)
//! returns at once, and the reader ends after the read it is in, when it finds nobody to hand the buffer to
//! (a read of a pipe may wait for its writer).

use std::io::Read;
use std::sync::mpsc::{channel, Receiver, Sender};

/// Reads until `out` is full or the input ends; returns how many bytes were read (0 only at the end).
/// Measured: `take(..).read_to_end` made about six `read` calls per block (it probes and grows); a file
/// fills a block in one.
pub fn fill(input: &mut impl Read, out: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < out.len() {
        match input.read(&mut out[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Fill `buffer[from..from + len]`.
struct Request {
    buffer: Vec<u8>,
    from: usize,
    len: usize,
}

/// A buffer handed back: its bytes before `from` as they were given, then what was read.
pub struct Filled {
    pub buffer: Vec<u8>,
    pub from: usize,
    /// Bytes read after `from` (0 at the end of the input), or why the read failed.
    pub read: std::io::Result<usize>,
}

/// The reading thread's two ends.
pub struct ReadAhead {
    requests: Sender<Request>,
    filled: Receiver<Filled>,
}

impl ReadAhead {
    /// Starts the reading thread on `input`.
    pub fn start(input: Box<dyn Read + Send>) -> std::io::Result<Self> {
        let (requests, to_read) = channel::<Request>();
        let (done, filled) = channel();
        std::thread::Builder::new()
            .name("gpu-gjk input".into())
            .spawn(move || {
                let mut input = input;
                for Request {
                    mut buffer,
                    from,
                    len,
                } in to_read
                {
                    let read = fill(&mut input, &mut buffer[from..from + len]);
                    let failed = read.is_err();
                    if done.send(Filled { buffer, from, read }).is_err() || failed {
                        return;
                    }
                }
            })?;
        Ok(Self { requests, filled })
    }

    /// Asks for `buffer[from..from + len]` to be filled (the buffer must be that long).
    pub fn request(&self, buffer: Vec<u8>, from: usize, len: usize) {
        debug_assert!(buffer.len() >= from + len);
        // The thread only stops after handing back a failed read, which the caller sees first and stops on.
        let _ = self.requests.send(Request { buffer, from, len });
    }

    /// The buffer of the last request, filled.
    pub fn receive(&self) -> Filled {
        self.filled.recv().unwrap_or_else(|_| Filled {
            buffer: Vec::new(),
            from: 0,
            read: Err(std::io::Error::other("the input's reading thread stopped")),
        })
    }
}
