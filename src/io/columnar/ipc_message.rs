//! One Arrow IPC message (a flatbuffer header, then a body of buffers), checked before arrow-ipc decodes
//! it: arrow-ipc slices each buffer out of the body at the offset and length the header gives, and a
//! header that places one past the body's end (a damaged file) stopped `query` with a panic
//! (`the offset of the new Buffer cannot exceed the existing length`), found by mutating tables byte by
//! byte. Shared by the IPC file and stream readers.

use arrow_ipc::{Message, MessageHeader, RecordBatch};
use arrow_schema::ArrowError;

/// What precedes a message's length since format version 0.15.
pub const CONTINUATION_MARKER: [u8; 4] = [0xff; 4];

/// The header message of a block's metadata bytes (`0xFFFFFFFF`, its length, the flatbuffer, padding; or the
/// older layout without the marker).
pub fn block_message(metadata: &[u8]) -> Result<Message<'_>, ArrowError> {
    let (length_at, start): (usize, usize) = match metadata.get(..4) {
        Some(marker) if marker == CONTINUATION_MARKER => (4, 8),
        _ => (0, 4),
    };
    let length = metadata
        .get(length_at..length_at + 4)
        .map(|b| i32::from_le_bytes(b.try_into().expect("four bytes")))
        .ok_or_else(|| {
            damaged(format!(
                "a message's metadata is {} bytes long",
                metadata.len()
            ))
        })?;
    let message = usize::try_from(length)
        .ok()
        .and_then(|len| metadata.get(start..start.checked_add(len)?))
        .ok_or_else(|| {
            damaged(format!(
                "a message of {length} bytes does not fit in its block's {} bytes of metadata",
                metadata.len()
            ))
        })?;
    parse_message(message)
}

/// The header message of `bytes` (a verified flatbuffer).
pub fn parse_message(bytes: &[u8]) -> Result<Message<'_>, ArrowError> {
    arrow_ipc::root_as_message(bytes)
        .map_err(|e| damaged(format!("a message header cannot be read: {e}")))
}

/// Most values an array of a record batch may hold. A damaged length near the 64-bit limit made arrow's
/// own validation overflow (`integer overflow computing expected number of expected values in
/// FixedListSize`, a panic); with lengths up to 2^31 - 1 and list sizes that are 32-bit numbers, no product
/// it forms overflows. Writers usually cut tables into record batches far smaller (pyarrow's `write_feather`:
/// 65,536 rows).
pub const MAX_ARRAY_LEN: i64 = i32::MAX as i64;

/// Checks that the record batch or dictionary batch `message` places every buffer inside a body of
/// `body_len` bytes and gives every array a length up to [`MAX_ARRAY_LEN`] with at most that many nulls
/// (other messages have no buffers).
pub fn check_buffers(message: &Message, body_len: usize) -> Result<(), ArrowError> {
    let Some(batch) = batch_of(message) else {
        return Ok(());
    };
    if !(0..=MAX_ARRAY_LEN).contains(&batch.length()) {
        return Err(damaged(format!(
            "a record batch of {} rows (at most {MAX_ARRAY_LEN} are read)",
            batch.length()
        )));
    }
    for (k, node) in batch.nodes().into_iter().flatten().enumerate() {
        if !(0..=MAX_ARRAY_LEN).contains(&node.length())
            || !(0..=node.length()).contains(&node.null_count())
        {
            return Err(damaged(format!(
                "array {k} of a record batch has {} values and {} nulls (at most {MAX_ARRAY_LEN} values are \
                 read)",
                node.length(),
                node.null_count()
            )));
        }
    }
    for (k, buffer) in batch.buffers().into_iter().flatten().enumerate() {
        let inside = usize::try_from(buffer.offset())
            .ok()
            .zip(usize::try_from(buffer.length()).ok())
            .and_then(|(offset, len)| offset.checked_add(len))
            .is_some_and(|end| end <= body_len);
        if !inside {
            return Err(damaged(format!(
                "buffer {k} of a record batch (offset {}, {} bytes) does not lie inside its body ({body_len} \
                 bytes)",
                buffer.offset(),
                buffer.length()
            )));
        }
    }
    Ok(())
}

/// How many times its compressed size a compressed buffer may say it holds: zstd's run-length blocks reach
/// about 32,768 times, LZ4's format about 255. A damaged size prefix (2^45 bytes) made arrow-ipc's LZ4
/// path ask for that much memory, which ends the process; one within this bound is allocated and then found
/// not to match (arrow-ipc's own error).
pub const MAX_COMPRESSION_RATIO: u64 = 1 << 16;

/// Checks each compressed buffer of the record batch or dictionary batch `message` in `body`: the size it
/// says it holds (the 8 bytes before its data) within [`MAX_COMPRESSION_RATIO`] times its own, plus 1 MiB.
/// Call after [`check_buffers`].
pub fn check_compressed_sizes(message: &Message, body: &[u8]) -> Result<(), ArrowError> {
    let Some(batch) = batch_of(message).filter(|b| b.compression().is_some()) else {
        return Ok(());
    };
    for (k, buffer) in batch.buffers().into_iter().flatten().enumerate() {
        // check_buffers has placed every buffer inside the body.
        let (offset, len) = (buffer.offset() as usize, buffer.length() as usize);
        let Some(prefix) = body.get(offset..offset + len).and_then(|b| b.get(..8)) else {
            continue;
        };
        let stated = i64::from_le_bytes(prefix.try_into().expect("eight bytes"));
        let most = (len as u64 - 8)
            .saturating_mul(MAX_COMPRESSION_RATIO)
            .saturating_add(1 << 20);
        if stated > 0 && stated as u64 > most {
            return Err(damaged(format!(
                "compressed buffer {k} of a record batch ({len} bytes) says it holds {stated} bytes (at most \
                 {most} are read from it)"
            )));
        }
    }
    Ok(())
}

/// The record batch a record batch or dictionary batch message carries (the arrays, buffers and compression
/// both checks read); `None` for any other message.
fn batch_of<'a>(message: &Message<'a>) -> Option<RecordBatch<'a>> {
    match message.header_type() {
        MessageHeader::RecordBatch => message.header_as_record_batch(),
        MessageHeader::DictionaryBatch => {
            message.header_as_dictionary_batch().and_then(|d| d.data())
        }
        _ => None,
    }
}

/// The error for a file that is not what its header or footer says.
pub fn damaged(why: String) -> ArrowError {
    ArrowError::ParseError(format!("not a readable Arrow IPC file: {why}"))
}
