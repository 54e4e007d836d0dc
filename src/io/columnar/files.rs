//! Columnar files: which format a name means, reading a table record batch by record batch, and writing one.

use super::guard::{guarded, GuardedBatches};
use super::ipc_file::CheckedIpcFile;
use super::ipc_stream::CheckedIpcStream;
use anyhow::{bail, Context};
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_ipc::writer::FileWriter;
use arrow_schema::{ArrowError, DataType, Schema};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

/// A batch file's format (the command line's `--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchFormat {
    /// JSON Lines, one pair per line (shapes inline).
    Jsonl,
    /// Arrow IPC, file format (`.arrow`, `.ipc`, `.feather`); the stream format is read too.
    Arrow,
    /// Parquet (`.parquet`).
    Parquet,
}

impl BatchFormat {
    /// The format a name's extension says, if it names a columnar one.
    pub fn from_extension(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_string_lossy().to_lowercase();
        match extension.as_str() {
            "arrow" | "ipc" | "feather" => Some(BatchFormat::Arrow),
            "parquet" => Some(BatchFormat::Parquet),
            "jsonl" | "json" | "ndjson" => Some(BatchFormat::Jsonl),
            _ => None,
        }
    }

    pub fn is_columnar(self) -> bool {
        self != BatchFormat::Jsonl
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            BatchFormat::Jsonl => "JSON Lines",
            BatchFormat::Arrow => "Arrow IPC",
            BatchFormat::Parquet => "Parquet",
        }
    }
}

/// The record batches of a table.
pub type Batches = Box<dyn Iterator<Item = Result<RecordBatch, ArrowError>>>;

/// Rows per record batch read from Parquet (IPC files keep the batches they were written with).
const PARQUET_BATCH_ROWS: usize = 1 << 16;

/// Opens `path` as a table of `format` (Arrow or Parquet): its schema and its record batches. Opening and
/// each batch run under `guarded`, so a reader's panic on a damaged file is an error here.
pub fn read_table(path: &Path, format: BatchFormat) -> anyhow::Result<(Arc<Schema>, Batches)> {
    let context = || format!("cannot read {}", path.display());
    let mut file = File::open(path).with_context(context)?;
    let (schema, batches) = match format {
        BatchFormat::Arrow => {
            // The IPC file format starts with `ARROW1`; anything else is tried as the stream format.
            let mut magic = [0u8; 6];
            let is_file = file.read_exact(&mut magic).is_ok() && &magic == b"ARROW1";
            file.seek(SeekFrom::Start(0)).with_context(context)?;
            if is_file {
                let reader = guarded(|| CheckedIpcFile::open(file)).with_context(context)?;
                (reader.schema(), Box::new(reader) as Batches)
            } else {
                let reader = guarded(|| CheckedIpcStream::open(file)).with_context(context)?;
                (reader.schema(), Box::new(reader) as Batches)
            }
        }
        BatchFormat::Parquet => {
            let reader = guarded(|| open_parquet(file)).with_context(context)?;
            (reader.schema(), Box::new(reader) as Batches)
        }
        BatchFormat::Jsonl => bail!("{} is JSON Lines, not a table", path.display()),
    };
    Ok((schema, Box::new(GuardedBatches::new(batches))))
}

/// A Parquet file's reader, once every column chunk's byte range is seen to lie inside the file (parquet
/// asserts that a chunk's start and length are not negative, and reads past the end otherwise).
fn open_parquet(file: File) -> Result<ParquetRecordBatchReader, ArrowError> {
    let len = file.metadata()?.len();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)?;
    for (g, group) in builder.metadata().row_groups().iter().enumerate() {
        for column in group.columns() {
            let start = column
                .dictionary_page_offset()
                .unwrap_or(column.data_page_offset());
            let size = column.compressed_size();
            let inside = u64::try_from(start)
                .ok()
                .zip(u64::try_from(size).ok())
                .and_then(|(start, size)| start.checked_add(size))
                .is_some_and(|end| end <= len);
            if !inside {
                return Err(ArrowError::ParseError(format!(
                    "not a readable Parquet file: column `{}` of row group {g} ({size} bytes at offset {start}) does \
                     not lie inside the file ({len} bytes)",
                    column.column_path()
                )));
            }
        }
    }
    builder
        .with_batch_size(PARQUET_BATCH_ROWS)
        .build()
        .map_err(Into::into)
}

/// A table being written: Arrow IPC file format, or Parquet with snappy compression (the Arrow schema is
/// stored with it, so the table reads back with the same column types).
pub enum TableWriter {
    Arrow(FileWriter<BufWriter<File>>),
    Parquet(ArrowWriter<File>),
}

impl TableWriter {
    pub fn create(path: &Path, format: BatchFormat, schema: &Arc<Schema>) -> anyhow::Result<Self> {
        let context = || format!("cannot write {}", path.display());
        let file = File::create(path).with_context(context)?;
        Ok(match format {
            BatchFormat::Arrow => TableWriter::Arrow(
                FileWriter::try_new(BufWriter::with_capacity(1 << 20, file), schema)
                    .with_context(context)?,
            ),
            BatchFormat::Parquet => {
                // Dictionaries pay off only on the few distinct strings (statuses); on floats the writer
                // builds one, finds it too big and falls back: writing 21,000 answers took 0.05 s with
                // them and 0.015 s without (`bench --io`).
                let properties = schema
                    .fields()
                    .iter()
                    .filter(|f| f.data_type() == &DataType::Utf8)
                    .fold(
                        WriterProperties::builder()
                            .set_compression(Compression::SNAPPY)
                            .set_dictionary_enabled(false),
                        |builder, f| {
                            builder.set_column_dictionary_enabled(
                                ColumnPath::from(f.name().as_str()),
                                true,
                            )
                        },
                    )
                    .build();
                TableWriter::Parquet(
                    ArrowWriter::try_new(file, schema.clone(), Some(properties))
                        .with_context(context)?,
                )
            }
            BatchFormat::Jsonl => bail!("{}: JSON Lines is not a table", path.display()),
        })
    }

    pub fn write(&mut self, batch: &RecordBatch) -> anyhow::Result<()> {
        match self {
            TableWriter::Arrow(w) => w.write(batch)?,
            TableWriter::Parquet(w) => w.write(batch)?,
        }
        Ok(())
    }

    pub fn finish(self) -> anyhow::Result<()> {
        match self {
            TableWriter::Arrow(mut w) => {
                w.finish()?;
                use std::io::Write;
                w.into_inner()?.flush()?;
            }
            TableWriter::Parquet(w) => {
                w.close()?;
            }
        }
        Ok(())
    }
}

/// Writes one table of `batches` to `path`.
pub fn write_table(
    path: &Path,
    format: BatchFormat,
    schema: &Arc<Schema>,
    batches: &[RecordBatch],
) -> anyhow::Result<()> {
    let mut writer = TableWriter::create(path, format, schema)?;
    for batch in batches {
        writer
            .write(batch)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    writer
        .finish()
        .with_context(|| format!("cannot write {}", path.display()))
}
