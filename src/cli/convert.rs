//! `gpu-gjk convert`: the command's arguments, its checks of the table names, and its report; the
//! conversion itself is [`crate::io::columnar::convert_jsonl`].

use super::choices::{FormatArg, LineLimitArg};
use super::stdin_notice::say_when_reading_a_terminal;
use crate::io::columnar::{convert_jsonl, BatchFormat, Converted};
use crate::io::same_file::refuse_same_file;
use crate::io::sink::note;
use anyhow::bail;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, clap::Args)]
pub struct ConvertArgs {
    /// JSON Lines batch, the `query` input format; `-` reads stdin.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// The shapes table to write (`.arrow`, `.ipc`, `.feather` or `.parquet`).
    #[arg(long, value_name = "FILE")]
    pub shapes: PathBuf,
    /// The pairs table to write (each table is written in the format its name says).
    #[arg(long, value_name = "FILE")]
    pub pairs: PathBuf,
    /// The tables' format, when their names do not say it (a name that says another is refused).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    #[command(flatten)]
    pub line_limit: LineLimitArg,
}

/// Runs `convert`: prints `pairs=N shapes=M` on stderr.
pub fn run_convert(args: &ConvertArgs) -> anyhow::Result<Converted> {
    // Both tables are written after the input is read whole, so a table named as the input, or the two
    // tables named alike, would leave one of them in place of the other.
    let input = ("the input", args.input.as_path());
    refuse_same_file("--shapes", &args.shapes, &[input])?;
    refuse_same_file(
        "--pairs",
        &args.pairs,
        &[input, ("--shapes", args.shapes.as_path())],
    )?;
    let [shapes_format, pairs_format] = table_formats(
        args.format.map(BatchFormat::from),
        &args.shapes,
        &args.pairs,
    )?;
    say_when_reading_a_terminal("convert", &args.input);
    let converted = convert_jsonl(
        &args.input,
        (args.shapes.as_path(), shapes_format),
        (args.pairs.as_path(), pairs_format),
        args.line_limit.max_line_bytes,
    )?;
    note(format_args!(
        "pairs={} shapes={}",
        converted.pairs, converted.shapes
    ));
    Ok(converted)
}

/// The formats of the shapes and the pairs tables, as `query` will read them: each table in the format its
/// name says (`query` reads the shapes table by its own name, so `.arrow` shapes beside `.parquet` pairs
/// read back), a name that says none in `--format`, else in the other table's format.
pub fn table_formats(
    format: Option<BatchFormat>,
    shapes: &Path,
    pairs: &Path,
) -> anyhow::Result<[BatchFormat; 2]> {
    if format.is_some_and(|f| !f.is_columnar()) {
        bail!(
            "--format jsonl: JSON Lines is not a table format; convert writes arrow (Arrow IPC) or \
             parquet"
        );
    }
    let named = [("--shapes", shapes), ("--pairs", pairs)].map(|(flag, path)| {
        let said = BatchFormat::from_extension(path);
        match (said, format) {
            (Some(BatchFormat::Jsonl), _) => bail!(
                "{flag} {}: a table is written there, but the name says JSON Lines; name it `.arrow`, \
                 `.ipc`, `.feather` or `.parquet`",
                path.display()
            ),
            // A name that says another format than the bytes under it is read in the wrong format.
            (Some(said), Some(given)) if said != given => bail!(
                "{flag} {}: the name says {} but --format says {}; give the file a name of its format",
                path.display(),
                said.name(),
                given.name()
            ),
            _ => Ok(said.or(format)),
        }
    });
    let [shapes_said, pairs_said] = named;
    let (shapes_said, pairs_said) = (shapes_said?, pairs_said?);
    match (shapes_said.or(pairs_said), pairs_said.or(shapes_said)) {
        (Some(s), Some(p)) => Ok([s, p]),
        _ => bail!(
            "--shapes {} and --pairs {}: the names say no table format; name them `.arrow`, `.ipc`, \
             `.feather` or `.parquet`, or give --format arrow|parquet",
            shapes.display(),
            pairs.display()
        ),
    }
}
