//! Arrow IPC files (the file format) read block by block, each block's lengths checked against the file
//! before it is read and its buffers' places against its body before it is decoded: arrow-ipc's
//! `FileReader` unwraps a block's length, so a damaged footer (a negative length) stopped `query` with a
//! panic (and so did a damaged message, see [`super::ipc_message`]). Each block is read into a buffer of its exact size without zeroing
//! it first (`FileReader` zeroes it, then reads over it), and the record batch's arrays point into that
//! buffer; one block is held at a time, as with `FileReader`.
use super::ipc_message::{block_message, check_buffers, check_compressed_sizes, damaged};
use crate::text::{count, count_len};
use arrow_array::RecordBatch;
use arrow_buffer::Buffer;
use arrow_ipc::convert::try_fb_to_schema;
use arrow_ipc::reader::{read_footer_length, FileDecoder};
use arrow_ipc::{root_as_footer, Block};
use arrow_schema::{ArrowError, SchemaRef};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

/// The 10 bytes at the end of an IPC file: the footer's length (4) and `ARROW1`.
const TRAILER_BYTES: u64 = 10;

/// An IPC file's record batches, read and decoded one block at a time.
pub struct CheckedIpcFile {
    file: File,
    /// The file's size in bytes.
    len: u64,
    schema: SchemaRef,
    decoder: FileDecoder,
    blocks: Vec<Block>,
    next: usize,
}

impl CheckedIpcFile {
    /// Reads the footer of `file` (an IPC file: it starts with `ARROW1`): schema, dictionaries and the
    /// record batches' places.
    pub fn open(mut file: File) -> Result<Self, ArrowError> {
        let len = file.metadata()?.len();
        let trailer_start = len.checked_sub(TRAILER_BYTES).ok_or_else(|| {
            damaged(format!(
                "it has {}, too few for an IPC file",
                count(len, "byte")
            ))
        })?;
        let mut trailer = [0; TRAILER_BYTES as usize];
        file.seek(SeekFrom::Start(trailer_start))?;
        file.read_exact(&mut trailer)?;
        let footer_len = read_footer_length(trailer)?;
        let footer_start = trailer_start
            .checked_sub(footer_len as u64)
            .ok_or_else(|| {
                damaged(format!(
                    "its footer ({footer_len} bytes) is longer than the file ({len} bytes)"
                ))
            })?;
        let footer_bytes = read_span(&mut file, footer_start, footer_len)?;
        let footer = root_as_footer(&footer_bytes)
            .map_err(|e| damaged(format!("its footer cannot be read: {e}")))?;
        let ipc_schema = footer
            .schema()
            .ok_or_else(|| damaged("its footer has no schema".into()))?;
        if !ipc_schema.endianness().equals_to_target_endianness() {
            return Err(ArrowError::IpcError(
                "the file's byte order is not this machine's".into(),
            ));
        }
        let schema = Arc::new(try_fb_to_schema(ipc_schema)?);
        let blocks: Vec<Block> = footer
            .recordBatches()
            .ok_or_else(|| damaged("its footer lists no record batches".into()))?
            .iter()
            .copied()
            .collect();
        let mut decoder = FileDecoder::new(schema.clone(), footer.version());
        for block in footer.dictionaries().into_iter().flatten() {
            let data = read_block(&mut file, len, block)?;
            decoder.read_dictionary(block, &data)?;
        }
        Ok(Self {
            file,
            len,
            schema,
            decoder,
            blocks,
            next: 0,
        })
    }

    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Iterator for CheckedIpcFile {
    type Item = Result<RecordBatch, ArrowError>;

    /// The next record batch; the end of the batches (as `FileReader` ends) at the first block that holds
    /// none.
    fn next(&mut self) -> Option<Self::Item> {
        let block = *self.blocks.get(self.next)?;
        self.next += 1;
        read_block(&mut self.file, self.len, &block)
            .and_then(|data| self.decoder.read_record_batch(&block, &data))
            .transpose()
    }
}

/// The bytes of `block` (its message and body) in a file of `len` bytes, once its message is seen to place
/// every buffer inside its body; or why not.
fn read_block(file: &mut File, len: u64, block: &Block) -> Result<Buffer, ArrowError> {
    let data = read_block_bytes(file, len, block)?;
    // Both lengths are known to be non-negative and within the file here.
    let metadata = block.metaDataLength() as usize;
    let message = block_message(&data[..metadata])?;
    check_buffers(&message, block.bodyLength() as usize)?;
    check_compressed_sizes(&message, &data[metadata..])?;
    Ok(data)
}

/// The bytes of `block` (its message and body) in a file of `len` bytes, or why it does not lie inside it.
fn read_block_bytes(file: &mut File, len: u64, block: &Block) -> Result<Buffer, ArrowError> {
    let offset = u64::try_from(block.offset()).ok();
    let size = u64::try_from(block.metaDataLength())
        .ok()
        .zip(u64::try_from(block.bodyLength()).ok())
        .and_then(|(metadata, body)| metadata.checked_add(body));
    match (offset, size) {
        (Some(offset), Some(size)) if offset.checked_add(size).is_some_and(|end| end <= len) => {
            read_span(file, offset, size as usize).map(Buffer::from_vec)
        }
        _ => Err(damaged(format!(
            "a block (offset {}, {} bytes of metadata, {} bytes of body) does not lie inside the file \
             ({len} bytes)",
            block.offset(),
            block.metaDataLength(),
            block.bodyLength(),
        ))),
    }
}

/// `size` bytes of `file` from `offset`, read into a vector of that capacity without zeroing it first.
fn read_span(file: &mut File, offset: u64, size: usize) -> Result<Vec<u8>, ArrowError> {
    file.seek(SeekFrom::Start(offset))?;
    let mut bytes = Vec::with_capacity(size);
    file.take(size as u64).read_to_end(&mut bytes)?;
    if bytes.len() != size {
        return Err(damaged(format!(
            "it ended {} into a span of {size} at offset {offset}",
            count_len(bytes.len(), "byte")
        )));
    }
    Ok(bytes)
}
