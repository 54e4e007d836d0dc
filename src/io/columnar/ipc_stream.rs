//! Arrow IPC streams (the stream format) read message by message, each message's buffers checked against
//! its body before arrow-ipc decodes it ([`super::ipc_message`]), in place of arrow-ipc's `StreamReader`,
//! which hands every message to the decoder unchecked. Dictionaries are read as they come; a record batch is
//! decoded with arrow-ipc's own functions, its arrays validated.

use super::ipc_message::{
    check_buffers, check_compressed_sizes, damaged, parse_message, CONTINUATION_MARKER,
};
use crate::text::count_len;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_buffer::Buffer;
use arrow_ipc::convert::try_fb_to_schema;
use arrow_ipc::reader::{read_dictionary, read_record_batch};
use arrow_ipc::{Message, MessageHeader};
use arrow_schema::{ArrowError, SchemaRef};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, ErrorKind, Read};
use std::sync::Arc;

/// A stream's record batches, read and decoded one message at a time.
pub struct CheckedIpcStream {
    reader: BufReader<File>,
    schema: SchemaRef,
    dictionaries: HashMap<i64, ArrayRef>,
    /// The header of the message read last (reused from message to message).
    metadata: Vec<u8>,
    finished: bool,
}

impl CheckedIpcStream {
    /// Reads the stream's first message, its schema.
    pub fn open(file: File) -> Result<Self, ArrowError> {
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut metadata = Vec::new();
        let Some((message, _)) = next_message(&mut reader, &mut metadata)? else {
            return Err(damaged("the stream is empty: it has no schema".into()));
        };
        let schema = message.header_as_schema().ok_or_else(|| {
            damaged(format!(
                "the stream's first message is a {:?}, not its schema",
                message.header_type()
            ))
        })?;
        let schema = Arc::new(try_fb_to_schema(schema)?);
        Ok(Self {
            reader,
            schema,
            dictionaries: HashMap::new(),
            metadata,
            finished: false,
        })
    }

    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The record batch in `message` (`None` for a dictionary, which goes to `dictionaries` for the batches).
fn decode(
    message: Message,
    body: &Buffer,
    schema: &SchemaRef,
    dictionaries: &mut HashMap<i64, ArrayRef>,
) -> Result<Option<RecordBatch>, ArrowError> {
    let version = message.version();
    match message.header_type() {
        MessageHeader::RecordBatch => {
            let batch = message
                .header_as_record_batch()
                .ok_or_else(|| damaged("a record batch message has no record batch".into()))?;
            read_record_batch(body, batch, schema.clone(), dictionaries, None, &version).map(Some)
        }
        MessageHeader::DictionaryBatch => {
            let dictionary = message
                .header_as_dictionary_batch()
                .ok_or_else(|| damaged("a dictionary message has no dictionary".into()))?;
            read_dictionary(body, dictionary, schema, dictionaries, &version)?;
            Ok(None)
        }
        other => Err(damaged(format!("a {other:?} message after the schema"))),
    }
}

impl Iterator for CheckedIpcStream {
    type Item = Result<RecordBatch, ArrowError>;

    /// The next record batch; after an error, the end.
    fn next(&mut self) -> Option<Self::Item> {
        while !self.finished {
            let decoded = match next_message(&mut self.reader, &mut self.metadata) {
                Ok(Some((message, body))) => {
                    decode(message, &body, &self.schema, &mut self.dictionaries)
                }
                Ok(None) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => Err(e),
            };
            match decoded {
                Ok(Some(batch)) => return Some(Ok(batch)),
                Ok(None) => {}
                Err(e) => {
                    self.finished = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// Reads the next message's header into `metadata` and returns it (parsed once) with its body, once the
/// header is seen to place every buffer inside it; `None` at the end of the stream (the end of the file, or
/// a zero length).
fn next_message<'m>(
    reader: &mut impl Read,
    metadata: &'m mut Vec<u8>,
) -> Result<Option<(Message<'m>, Buffer)>, ArrowError> {
    let mut word = [0u8; 4];
    match reader.read_exact(&mut word) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    if word == CONTINUATION_MARKER {
        reader.read_exact(&mut word)?;
    }
    let length = i32::from_le_bytes(word);
    if length == 0 {
        return Ok(None);
    }
    let length =
        usize::try_from(length).map_err(|_| damaged(format!("a message's length is {length}")))?;
    metadata.clear();
    read_exactly(reader, length, metadata, "a message header")?;
    let message = parse_message(metadata.as_slice())?;
    let body_len = usize::try_from(message.bodyLength()).map_err(|_| {
        damaged(format!(
            "a message's body length is {}",
            message.bodyLength()
        ))
    })?;
    check_buffers(&message, body_len)?;
    let mut body = Vec::new();
    read_exactly(reader, body_len, &mut body, "a message body")?;
    check_compressed_sizes(&message, &body)?;
    Ok(Some((message, Buffer::from_vec(body))))
}

/// Appends the next `len` bytes of `reader` to `out`; an error naming `what` when the stream ends first. The
/// vector grows with the bytes that arrive, so a damaged length costs a short read, not its allocation.
fn read_exactly(
    reader: &mut impl Read,
    len: usize,
    out: &mut Vec<u8>,
    what: &str,
) -> Result<(), ArrowError> {
    let read = reader.by_ref().take(len as u64).read_to_end(out)?;
    if read != len {
        return Err(damaged(format!(
            "the stream ends {} into {what} of {len} bytes",
            count_len(read, "byte")
        )));
    }
    Ok(())
}
