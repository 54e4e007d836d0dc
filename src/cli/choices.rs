//! The values of the flags that name a library choice, as clap reads and documents them (`--help` lists each
//! value with the line above it); the library's own enums ([`Backend`], [`BatchFormat`]) know nothing of clap.

use crate::io::batch::Backend;
use crate::io::columnar::BatchFormat;
use crate::io::jsonl::DEFAULT_MAX_LINE_BYTES;

/// `--backend`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// The GPU when one is available (see each command for whether a software adapter counts), else the CPU.
    #[default]
    Auto,
    /// The CPU reference GJK.
    Cpu,
    /// Any GPU adapter, software rasterisers included; fails if there is none.
    Gpu,
    /// The GPU through Vulkan only.
    Vulkan,
    /// The GPU through OpenGL (ES) only.
    Gl,
    /// The GPU through Metal only.
    Metal,
    /// The GPU through Direct3D 12 only.
    Dx12,
}

impl From<BackendArg> for Backend {
    fn from(arg: BackendArg) -> Self {
        match arg {
            BackendArg::Auto => Backend::Auto,
            BackendArg::Cpu => Backend::Cpu,
            BackendArg::Gpu => Backend::Gpu,
            BackendArg::Vulkan => Backend::Vulkan,
            BackendArg::Gl => Backend::Gl,
            BackendArg::Metal => Backend::Metal,
            BackendArg::Dx12 => Backend::Dx12,
        }
    }
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// JSON Lines, one pair per line (shapes inline).
    Jsonl,
    /// Arrow IPC, file format (`.arrow`, `.ipc`, `.feather`); the stream format is read too.
    Arrow,
    /// Parquet (`.parquet`).
    Parquet,
}

impl From<FormatArg> for BatchFormat {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Jsonl => BatchFormat::Jsonl,
            FormatArg::Arrow => BatchFormat::Arrow,
            FormatArg::Parquet => BatchFormat::Parquet,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// The command line's names are the library's: the Python module parses `backend=` with the library's.
    #[test]
    fn backend_names_match_the_library() {
        let names: Vec<String> = BackendArg::value_variants()
            .iter()
            .map(|b| b.to_possible_value().unwrap().get_name().to_owned())
            .collect();
        let library: Vec<&str> = Backend::ALL.iter().map(|(_, n)| *n).collect();
        assert_eq!(names, library);
        for arg in BackendArg::value_variants() {
            let name = arg.to_possible_value().unwrap().get_name().to_owned();
            assert_eq!(Backend::from_name(&name), Some(Backend::from(*arg)));
        }
    }
}

/// `--max-line-bytes`, shared by the commands that read JSON Lines.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct LineLimitArg {
    /// The longest input line read, in bytes (67108864, 64 MiB, unless given): a longer line stops the
    /// reading with an error naming it, as soon as the reader is past the limit. A pair of two 40,000-point
    /// hulls written with every digit is a line of about 5 MB.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_LINE_BYTES, value_parser = parse_line_limit)]
    pub max_line_bytes: usize,
}

impl Default for LineLimitArg {
    fn default() -> Self {
        Self {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

/// A whole number of bytes, at least 1.
fn parse_line_limit(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("a line limit of 0 bytes would refuse every line; give at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text}: expected a whole number of bytes")),
    }
}
