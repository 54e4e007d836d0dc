//! Reading the input, cutting it into lines and parsing each.
//!
//! The input is read in blocks of whole lines, each block parsed in parallel, and every valid pair is
//! kept for one batch; the parsed lines share the shapes that repeat (see [`super::typed`]).
//!
//! The rules, so that output line N always answers input line N: lines end at `\n` (a `\r` before it is
//! dropped), and the newline that ends the last line does not start another; a UTF-8 byte order mark at
//! the start of a line is skipped (files joined with `cat` keep theirs); a blank line (nothing but spaces,
//! tabs and carriage returns) is answered by a blank line and is not an error; every other line is a pair or an error.
//!
//! A line longer than the line limit ([`DEFAULT_MAX_LINE_BYTES`] unless the caller says otherwise, `query
//! --max-line-bytes`) stops the reading with [`LineTooLong`] as soon as the reader is past the limit, so an
//! input without newlines (`/dev/zero`) fails at once instead of filling the memory.

use super::parse::{parse_line, refused_line_id, PairInput, PlacedShape};
use super::read_ahead::{fill, Filled, ReadAhead};
use super::typed::{parse_good_line, ShapeCache};
use crate::io::batch::{Executor, IndexedPair};
use crate::io::pair_id::PairId;
use crate::shape::ConvexShape;
use std::fs::File;
use std::io::{self, Read};

use std::path::Path;

/// The longest line the readers take unless told otherwise: 64 MiB. A pair of two 40,000-point hulls written
/// with every float64 digit (Python's `json.dumps` of random coordinates, about 64 bytes a point) is a line of
/// 5,144,727 bytes, so the default leaves a margin of 13 for such a pair, or about a million points in one
/// line. Reading a line holds it whole, and parsing it takes several times its bytes (`inspect` peaked at
/// 213 MB on a 32 MB line), which is what the limit bounds.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 << 20;

/// A line longer than the line limit: the reading stopped on it, before holding more than the limit and a
/// block of it. Its message names the line, the limit and `--max-line-bytes`, the option that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineTooLong {
    /// 1-based.
    pub line: usize,
    pub limit: usize,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: longer than the line length limit of {} (the reading stopped there); raise the \
             limit with --max-line-bytes N",
            self.line,
            crate::text::count_len(self.limit, "byte")
        )
    }
}

impl std::error::Error for LineTooLong {}

impl LineTooLong {
    fn error(line: usize, limit: usize) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, LineTooLong { line, limit })
    }
}

/// The index of the first of `text`'s lines (cut at each `\n`, a `\r` before it counted) longer than `limit`.
fn first_long_line(text: &[u8], limit: usize) -> Option<usize> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text)
        .chain(std::iter::once(text.len()))
        .position(|end| {
            let long = end - start > limit;
            start = end + 1;
            long
        })
}

/// An input error as the commands print it: a line too long names the input and the line; any other says
/// the input could not be read.
pub fn input_error(path: &Path, error: io::Error) -> anyhow::Error {
    let name = match path.as_os_str() == "-" {
        true => "standard input".to_string(),
        false => path.display().to_string(),
    };
    if error
        .get_ref()
        .is_some_and(|inner| inner.is::<LineTooLong>())
    {
        let too_long = *error
            .into_inner()
            .expect("checked above")
            .downcast::<LineTooLong>()
            .expect("checked above");
        return anyhow::Error::new(too_long).context(name);
    }
    let what = match path.as_os_str() == "-" {
        true => name,
        false => format!("input file {name}"),
    };
    anyhow::Error::new(error).context(format!("cannot read {what}"))
}

/// Reads `path`, or stdin when it is `-`, whole; a line longer than `max_line_bytes` stops the reading
/// with [`LineTooLong`] (see [`DEFAULT_MAX_LINE_BYTES`]).
pub fn read_input(path: &Path, max_line_bytes: usize) -> anyhow::Result<Vec<u8>> {
    let read = if path.as_os_str() == "-" {
        read_capped(io::stdin().lock(), max_line_bytes)
    } else {
        File::open(path).and_then(|file| read_capped(file, max_line_bytes))
    };
    read.map_err(|e| input_error(path, e))
}

/// Reads `input` to its end, checking each line's length as it comes.
fn read_capped(mut input: impl Read, limit: usize) -> io::Result<Vec<u8>> {
    const CHUNK: usize = 1 << 20;
    let mut bytes = Vec::new();
    // Where the line being read starts, and how many lines came before it.
    let (mut line_start, mut lines) = (0, 0);
    loop {
        let at = bytes.len();
        bytes.resize(at + CHUNK, 0);
        let read = fill(&mut input, &mut bytes[at..])?;
        bytes.truncate(at + read);
        for newline in memchr::memchr_iter(b'\n', &bytes[at..]) {
            if at + newline - line_start > limit {
                return Err(LineTooLong::error(lines + 1, limit));
            }
            lines += 1;
            line_start = at + newline + 1;
        }
        if bytes.len() - line_start > limit {
            return Err(LineTooLong::error(lines + 1, limit));
        }
        if read == 0 {
            return Ok(bytes);
        }
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
    let mut start = 0;
    memchr::memchr_iter(b'\n', body)
        .chain(std::iter::once(body.len()))
        .map(|end| {
            let line = &body[start..end];
            start = end + 1;
            line
        })
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .map(|line| line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line))
        .collect()
}

/// What one input line holds.
#[derive(Clone, Debug, PartialEq)]
pub enum ParsedLine {
    /// Nothing but spaces, tabs and carriage returns: answered by a blank line.
    Blank,
    Pair(PairInput),
    Error(LineError),
}

/// A line that is not a pair: the message, starting with `line N: ` (1-based), as the output line and
/// stderr show it, and the line's id when it is a JSON object whose `"id"` is one (its error line carries
/// it). Reads as the message (`Deref` to `str`).
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub message: String,
    pub id: Option<PairId>,
}

impl From<String> for LineError {
    /// A message without an id.
    fn from(message: String) -> Self {
        Self { message, id: None }
    }
}

impl std::ops::Deref for LineError {
    type Target = str;
    fn deref(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The pairs among parsed lines, in order.
pub fn pairs_of(parsed: &[ParsedLine]) -> Vec<&PairInput> {
    parsed
        .iter()
        .filter_map(|line| match line {
            ParsedLine::Pair(pair) => Some(pair),
            _ => None,
        })
        .collect()
}

/// A batch that `cache` (a listing cache, [`ShapeCache::listing`]) read as `parsed`, as the GPU runs it: the
/// listed shapes that its pairs use, in the order of their first use, and each pair as two indices into them
/// and the two world poses. Each distinct shape is there once, as the cache shared it; no shape is compared
/// here, and a shape that only failed lines built is left out (the GPU's kernels depend on the hulls
/// uploaded).
///
/// # Panics
/// When the cache does not list its shapes, or did not read `parsed`.
pub fn indexed_batch(
    parsed: &[ParsedLine],
    cache: ShapeCache,
) -> (Vec<ConvexShape>, Vec<IndexedPair>) {
    let listed = cache.into_listed();
    const UNUSED: u32 = u32::MAX;
    let mut position = vec![UNUSED; listed.len()];
    let mut shapes = Vec::new();
    let mut index = |side: &PlacedShape| {
        let listed_at = side.listed.expect("pairs read by this ShapeCache") as usize;
        if position[listed_at] == UNUSED {
            position[listed_at] = shapes.len() as u32;
            shapes.push(ConvexShape::clone(&listed[listed_at]));
        }
        position[listed_at]
    };
    let pairs = parsed
        .iter()
        .filter_map(|line| match line {
            ParsedLine::Pair(pair) => Some(IndexedPair {
                a: index(&pair.a),
                b: index(&pair.b),
                a_pose: pair.a.pose,
                b_pose: pair.b.pose,
            }),
            _ => None,
        })
        .collect();
    (shapes, pairs)
}

/// Cuts `text` into lines and parses each, in order (in parallel unless `exec` is single-threaded).
pub fn parse_input(text: &[u8], exec: &Executor) -> Vec<ParsedLine> {
    parse_input_with(text, exec, &ShapeCache::default())
}

/// [`parse_input`] with the shape cache given, so a caller can see how many distinct shapes there were.
pub fn parse_input_with(text: &[u8], exec: &Executor, cache: &ShapeCache) -> Vec<ParsedLine> {
    let lines: Vec<(usize, &[u8])> = split_lines(text).into_iter().enumerate().collect();
    exec.map(&lines, |&(index, line)| parse_one(index, line, cache))
}

/// One line (`index` from 0). A good line takes the typed path; any other goes to the field-by-field
/// reader, which names its error.
fn parse_one(index: usize, line: &[u8], cache: &ShapeCache) -> ParsedLine {
    if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
        return ParsedLine::Blank;
    }
    if let Some(pair) = parse_good_line(line, cache) {
        return ParsedLine::Pair(pair);
    }
    match parse_line(line) {
        Ok(mut pair) => {
            cache.list_pair(&mut pair);
            ParsedLine::Pair(pair)
        }
        Err(message) => ParsedLine::Error(LineError {
            message: format!("line {}: {message}", index + 1),
            id: refused_line_id(line),
        }),
    }
}

/// Bytes read at a time by [`for_each_block`] on one thread: a block, its parsed lines and its answers
/// stay in the caches until they are written. Measured on the `bench --io` mix (`query --threads 1`, CPU time
/// by `perf stat`): 70 ms with 256 KiB blocks, 71 ms with 1 MiB, 74 ms with 4 MiB.
const BLOCK_BYTES: usize = 1 << 18;

/// Bytes per thread in a block on more threads: enough lines per block to hand each thread several
/// tasks of [`crate::io::batch::exec`]'s minimum size, on lines of a few kilobytes.
const BLOCK_BYTES_PER_THREAD: usize = 1 << 20;

fn block_bytes(exec: &Executor) -> usize {
    match exec.threads() {
        1 => BLOCK_BYTES,
        n => n.min(64) * BLOCK_BYTES_PER_THREAD,
    }
}

/// [`parse_input_with`] on a stream, read block by block ([`for_each_block`]): each block's whole lines are
/// parsed (in parallel), and a line cut by the block's end waits for the next one.
/// The lines are the same as [`split_lines`] gives on the whole input.
pub fn parse_stream(
    input: impl Read + Send + 'static,
    exec: &Executor,
    cache: &ShapeCache,
    max_line_bytes: usize,
) -> std::io::Result<Vec<ParsedLine>> {
    let mut parsed = Vec::new();
    for_each_block(input, exec, cache, max_line_bytes, |block| {
        parsed.append(block);
        Ok(())
    })?;
    Ok(parsed)
}

/// Reads `input` block by block and hands each block's parsed lines, in order, to `visit` (which may take
/// them: the vector is cleared and reused for the next block). Lines are numbered from the start of the
/// input, so error messages name the same line as [`parse_input`] does. An error from `visit` stops the
/// reading and is returned; a read error is returned after the blocks before it were visited.
///
/// On more than one thread the next block is read by its own thread while this one is parsed and answered
/// ([`ReadAhead`]); on one thread everything runs in turn on the caller's.
///
/// A line longer than `max_line_bytes` is an error, [`LineTooLong`], returned once the lines before it
/// were visited; the reading stops as soon as it is past the limit.
pub fn for_each_block(
    input: impl Read + Send + 'static,
    exec: &Executor,
    cache: &ShapeCache,
    max_line_bytes: usize,
    visit: impl FnMut(&mut Vec<ParsedLine>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut blocks = Blocks {
        exec,
        cache,
        visit,
        parsed: Vec::new(),
        lines_before: 0,
        max_line: max_line_bytes,
    };
    match exec.threads() {
        1 => blocks.read_in_turn(input),
        _ => blocks.read_ahead(input),
    }
}

/// [`for_each_block`]'s state: what parses a block of whole lines and who is handed them.
struct Blocks<'e, V> {
    exec: &'e Executor,
    cache: &'e ShapeCache,
    visit: V,
    parsed: Vec<ParsedLine>,
    lines_before: usize,
    max_line: usize,
}

impl<V: FnMut(&mut Vec<ParsedLine>) -> std::io::Result<()>> Blocks<'_, V> {
    /// Parses `text`, whole lines, and hands them to `visit`; a line too long is an error once the lines
    /// before it were handed on.
    fn lines(&mut self, text: &[u8]) -> std::io::Result<()> {
        let Some(long) = first_long_line(text, self.max_line) else {
            return self.parse_and_visit(text);
        };
        let before = text
            .split(|&b| b == b'\n')
            .take(long)
            .map(|l| l.len() + 1)
            .sum();
        if long > 0 {
            self.parse_and_visit(&text[..before])?;
        }
        Err(LineTooLong::error(self.lines_before + 1, self.max_line))
    }

    /// The error for the line that starts the buffer and has gone on for `len` bytes without its end, if
    /// that is past the limit.
    fn check_partial_line(&self, len: usize) -> std::io::Result<()> {
        match len > self.max_line {
            true => Err(LineTooLong::error(self.lines_before + 1, self.max_line)),
            false => Ok(()),
        }
    }

    fn parse_and_visit(&mut self, text: &[u8]) -> std::io::Result<()> {
        let lines: Vec<(usize, &[u8])> = split_lines(text)
            .into_iter()
            .enumerate()
            .map(|(k, line)| (self.lines_before + k, line))
            .collect();
        self.lines_before += lines.len();
        self.parsed.clear();
        let cache = self.cache;
        self.exec.map_into(
            &lines,
            |&(index, line)| parse_one(index, line, cache),
            &mut self.parsed,
        );
        (self.visit)(&mut self.parsed)
    }

    /// Reads a block, answers its whole lines, reads the next.
    fn read_in_turn(&mut self, mut input: impl Read) -> std::io::Result<()> {
        let block = block_bytes(self.exec);
        // One buffer for the whole input, zeroed once; `filled` bytes of it hold input not yet parsed.
        let mut buffer = vec![0u8; 2 * block];
        let mut filled = 0;
        loop {
            if buffer.len() - filled < block {
                // A line longer than the buffer so far.
                buffer.resize(filled + block, 0);
            }
            let read = fill(&mut input, &mut buffer[filled..filled + block])?;
            filled += read;
            let Some(end) = whole_lines(&buffer[..filled], read) else {
                self.check_partial_line(filled)?;
                continue;
            };
            self.lines(&buffer[..end])?;
            buffer.copy_within(end..filled, 0);
            filled -= end;
            if read == 0 {
                return Ok(());
            }
        }
    }

    /// [`Self::read_in_turn`] with the next block read by another thread meanwhile: two buffers, the one
    /// being answered and the one being filled, which starts with the line the other's block cut.
    fn read_ahead(&mut self, input: impl Read + Send + 'static) -> std::io::Result<()> {
        let block = block_bytes(self.exec);
        let reader = ReadAhead::start(Box::new(input))?;
        reader.request(vec![0u8; 2 * block], 0, block);
        let mut spare = vec![0u8; 2 * block];
        loop {
            let Filled {
                mut buffer,
                from,
                read,
            } = reader.receive();
            let read = read?;
            let filled = from + read;
            let Some(end) = whole_lines(&buffer[..filled], read) else {
                self.check_partial_line(filled)?;
                // A line longer than the buffer so far: read on into the same one.
                buffer.resize(filled + block, 0);
                reader.request(buffer, filled, block);
                continue;
            };
            if read > 0 {
                let cut = filled - end;
                if spare.len() < cut + block {
                    spare.resize(cut + block, 0);
                }
                spare[..cut].copy_from_slice(&buffer[end..filled]);
                reader.request(std::mem::take(&mut spare), cut, block);
            }
            self.lines(&buffer[..end])?;
            spare = buffer;
            if read == 0 {
                return Ok(());
            }
        }
    }
}

/// Where the whole lines of `text` end, `read` bytes having just been read into it: after its last newline,
/// or all of it at the end of the input (`read` 0); `None` when a line goes on past it.
fn whole_lines(text: &[u8], read: usize) -> Option<usize> {
    match read {
        0 => Some(text.len()),
        _ => memchr::memrchr(b'\n', text).map(|last| last + 1),
    }
}

/// Reads and parses `path` (stdin for `-`) block by block; a line longer than `max_line_bytes` stops it.
pub fn read_and_parse(
    path: &Path,
    exec: &Executor,
    cache: &ShapeCache,
    max_line_bytes: usize,
) -> anyhow::Result<Vec<ParsedLine>> {
    let parsed = if path.as_os_str() == "-" {
        parse_stream(io::stdin(), exec, cache, max_line_bytes)
    } else {
        File::open(path).and_then(|file| parse_stream(file, exec, cache, max_line_bytes))
    };
    parsed.map_err(|e| input_error(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Threads;

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

    /// Hands out at most 7 bytes per `read`, and is interrupted now and then, as a pipe may be.
    struct Trickle {
        text: Vec<u8>,
        at: usize,
        calls: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.calls.is_multiple_of(5) {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = out.len().min(7).min(self.text.len() - self.at);
            out[..n].copy_from_slice(&self.text[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// 4,001 lines with blank ones, errors, `\r\n` endings and lines longer than the buffer a block starts with.
    fn stream_test_text(block: usize) -> String {
        let pair = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]], "radius": 0.25}}"#;
        // A line longer than the two blocks the buffer starts with, padded inside the object.
        let long = format!(
            r#"{{"a": {{"points": [[0,0,0]]}},{} "b": {{"points": [[2,0,0]]}}}}"#,
            " ".repeat(3 * block)
        );
        let mut text = String::new();
        for k in 0..4000 {
            match k % 1000 {
                7 => text.push_str(&long),
                11 => text.push_str("{nope"),
                13 => text.push_str(" \t"),
                _ => text.push_str(pair),
            }
            text.push_str(if k % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str("{\"a\": 1}");
        text
    }

    #[test]
    fn streamed_blocks_parse_as_the_whole_input_does() {
        // One thread reads in turn; two read the next block ahead on a thread of their own.
        for threads in [Threads::Single, Threads::Count(2)] {
            let exec = Executor::new(threads).unwrap();
            let text = stream_test_text(block_bytes(&exec));
            let whole = parse_input(text.as_bytes(), &exec);
            assert_eq!(whole.len(), 4001);
            for input in [text.as_bytes(), &text.as_bytes()[..text.len() - 9]] {
                let whole = parse_input(input, &exec);
                let trickle = Trickle {
                    text: input.to_vec(),
                    at: 0,
                    calls: 0,
                };
                let streamed = parse_stream(
                    trickle,
                    &exec,
                    &ShapeCache::default(),
                    DEFAULT_MAX_LINE_BYTES,
                )
                .unwrap();
                assert_eq!(streamed, whole);
                let file = std::io::Cursor::new(input.to_vec());
                let file =
                    parse_stream(file, &exec, &ShapeCache::default(), DEFAULT_MAX_LINE_BYTES)
                        .unwrap();
                assert_eq!(file, whole);
            }
            assert!(matches!(&whole[4000], ParsedLine::Error(m) if m.starts_with("line 4001: ")));
            assert!(matches!(&whole[3011], ParsedLine::Error(m) if m.starts_with("line 3012: ")));
            assert!(matches!(&whole[3007], ParsedLine::Pair(_)));
        }
    }

    /// Fails its third read.
    struct Breaks {
        text: std::io::Cursor<Vec<u8>>,
        calls: usize,
    }

    impl Read for Breaks {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.calls == 3 {
                return Err(std::io::Error::other("the disk went away"));
            }
            self.text.read(out)
        }
    }

    #[test]
    fn a_read_error_comes_after_the_blocks_before_it() {
        for threads in [Threads::Single, Threads::Count(2)] {
            let exec = Executor::new(threads).unwrap();
            let block = block_bytes(&exec);
            let line = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#;
            let text = format!("{line}\n").repeat(4 * block / line.len());
            let input = Breaks {
                text: std::io::Cursor::new(text.into_bytes()),
                calls: 0,
            };
            let mut seen = 0;
            let result = for_each_block(
                input,
                &exec,
                &ShapeCache::default(),
                DEFAULT_MAX_LINE_BYTES,
                |parsed| {
                    seen += parsed.len();
                    Ok(())
                },
            );
            let error = result.unwrap_err();
            assert_eq!(error.to_string(), "the disk went away", "{threads:?}");
            // The first two reads filled two blocks: both were answered before the error.
            assert_eq!(seen, 2 * block / (line.len() + 1), "{threads:?}");
        }
    }

    #[test]
    fn a_line_past_the_limit_stops_the_reading_once_the_lines_before_it_are_visited() {
        let line = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#;
        let limit = line.len();
        let long = r#"{"a": {"points": [[0,0,0]]},  "b": {"points": [[1,0,0]]}}"#;
        for threads in [Threads::Single, Threads::Count(2)] {
            let exec = Executor::new(threads).unwrap();
            // Within a block, and a line without an end longer than every block (no newline ever).
            let within = format!("{line}\n{line}\n\n{long}\n{line}\n").into_bytes();
            let endless = [
                format!("{line}\n").as_bytes(),
                &vec![b'x'; 3 * block_bytes(&exec)],
            ]
            .concat();
            for (text, seen_before, at) in [(within, 3, 4), (endless, 1, 2)] {
                let mut seen = 0;
                let input = std::io::Cursor::new(text.clone());
                let result =
                    for_each_block(input, &exec, &ShapeCache::default(), limit, |parsed| {
                        seen += parsed.len();
                        Ok(())
                    });
                let error = result.unwrap_err();
                let too_long = error.get_ref().unwrap().downcast_ref::<LineTooLong>();
                assert_eq!(too_long, Some(&LineTooLong { line: at, limit }));
                assert_eq!(seen, seen_before, "{threads:?}");
                // Read whole, as `inspect` and `convert` read: the same line.
                let whole = read_capped(std::io::Cursor::new(text), limit).unwrap_err();
                let too_long = whole.get_ref().unwrap().downcast_ref::<LineTooLong>();
                assert_eq!(too_long, Some(&LineTooLong { line: at, limit }));
            }
            // A `\r` before the newline counts; the limit itself is allowed.
            let exact = format!("{line}\n{line}").into_bytes();
            assert_eq!(read_capped(&exact[..], limit).unwrap(), exact);
            assert!(read_capped(format!("{line}\r\n").as_bytes(), limit).is_err());
        }
        let message = LineTooLong {
            line: 7,
            limit: 100,
        }
        .to_string();
        assert_eq!(
            message,
            "line 7: longer than the line length limit of 100 bytes (the reading stopped there); raise \
             the limit with --max-line-bytes N"
        );
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

#[cfg(test)]
mod listing_tests {
    use super::*;
    use crate::io::batch::{query_indexed, query_pair, Executor};
    use crate::io::jsonl::parse::PairInput;
    use crate::query::AnswerKind;

    /// A listing cache is the batch's one shape de-duplication: a shape repeated across lines and across a
    /// line's sides goes into the batch once, a line the field-by-field reader took (an escaped key) has
    /// shapes of its own, a shape that only a failed line built is left out, and the order is that of first
    /// use. Each indexed pair answers as its parsed pair does, to the bit.
    #[test]
    fn a_listing_cache_gives_a_batch_each_shape_once() {
        let lines = [
            r#"{"a": {"points": [[0,0,0],[1,0,0]]}, "b": {"points": [[0,0,0],[1,0,0]], "position": [0.5,0.2,0]}}"#,
            r#"{"a": {"points": [[0,1,0]], "radius": 0.5}, "b": {"points": [[0,0,0],[1,0,0]], "position": [3,0,0]}}"#,
            r#"{"a": {"points": [[5,5,5]]}, "b": {"points": [[0,0,0]], "radius": -1}}"#,
            "",
            r#"{"\u0061": {"points": [[0,0,0],[1,0,0]]}, "b": {"points": [[2,0,0]], "rotation": [0,0,1,1]}}"#,
            r#"{"a": {"points": [[0,1,0]], "radius": 0.5, "position": [1,2,3]}, "b": {"points": [[0,1,0]], "radius": 0.5}}"#,
        ];
        let text = lines.join("\n");
        let cache = ShapeCache::listing();
        let exec = Executor::Single;
        let parsed = parse_input_with(text.as_bytes(), &exec, &cache);
        assert!(matches!(parsed[2], ParsedLine::Error(_)), "{:?}", parsed[2]);
        let parsed_pairs: Vec<PairInput> = pairs_of(&parsed).into_iter().cloned().collect();
        let (shapes, pairs) = indexed_batch(&parsed, cache);

        let indices: Vec<[u32; 2]> = pairs.iter().map(|p| [p.a, p.b]).collect();
        assert_eq!(indices, [[0, 0], [1, 0], [2, 3], [1, 1]]);
        assert_eq!(shapes.len(), 4);
        for (pair, indexed) in parsed_pairs.iter().zip(&pairs) {
            assert_eq!(shapes[indexed.a as usize], *pair.a.shape);
            assert_eq!(shapes[indexed.b as usize], *pair.b.shape);
            assert_eq!((indexed.a_pose, indexed.b_pose), (pair.a.pose, pair.b.pose));
            for kind in [
                AnswerKind::Penetration,
                AnswerKind::Distance,
                AnswerKind::Intersection,
            ] {
                let by_index = format!("{:?}", query_indexed(&shapes, indexed, kind));
                let by_pair = format!("{:?}", query_pair(pair, kind));
                assert_eq!(by_index, by_pair);
            }
        }
    }

    /// A cache that does not list (the CPU's streaming reader) keeps no shape beyond its lookup tables and
    /// marks none.
    #[test]
    fn a_plain_cache_lists_nothing() {
        let cache = ShapeCache::default();
        let parsed = parse_input_with(
            br#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#,
            &Executor::Single,
            &cache,
        );
        let ParsedLine::Pair(pair) = &parsed[0] else {
            panic!("{parsed:?}")
        };
        assert_eq!((pair.a.listed, pair.b.listed), (None, None));
    }
}
