//! Where the commands write: files named on the command line, or standard output for `-`. Every path is
//! checked before any work starts (its folder exists, it is not a folder, it can be opened for writing,
//! its extension names the format that will be written), so a long run never ends in "cannot write".
//!
//! Two ways standard output can fail are told apart: a reader that went away (`gpu-gjk bench | head -1`:
//! a broken pipe) ends the command quietly, while a standard output closed before the start (`>&-`) is an
//! error, since the results would be lost.

use anyhow::{bail, Context};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file named on the command line, or standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    Stdout,
    File(PathBuf),
}

/// The format a destination receives, when its name must say so: the extension it must have (a name
/// without an extension is accepted too).
#[derive(Clone, Copy, Debug)]
pub struct Format {
    pub extension: &'static str,
    pub name: &'static str,
}

impl Destination {
    /// `-` is standard output; anything else a file.
    pub fn from_arg(path: &Path) -> Self {
        if path.as_os_str() == "-" {
            Destination::Stdout
        } else {
            Destination::File(path.to_path_buf())
        }
    }

    pub fn is_stdout(&self) -> bool {
        *self == Destination::Stdout
    }

    /// "standard output" or "FILE".
    pub fn describe(&self) -> String {
        match self {
            Destination::Stdout => "standard output".into(),
            Destination::File(path) => path.display().to_string(),
        }
    }

    /// Checks, before the work starts, that the destination can take `format` and be written. A file that
    /// does not exist yet is created to find out, and removed again.
    pub fn check(&self, flag: &str, format: Option<Format>) -> anyhow::Result<()> {
        let path = match self {
            Destination::Stdout => return require_stdout(flag),
            Destination::File(path) => path,
        };
        if let Some(format) = format {
            let extension = path.extension().map(|e| e.to_string_lossy().to_lowercase());
            if extension.as_deref().is_some_and(|e| e != format.extension) {
                bail!(
                    "{flag} {}: {flag} writes {}, but the name ends in .{}; use a .{} name (or - for \
                     standard output)",
                    path.display(),
                    format.name,
                    extension.unwrap_or_default(),
                    format.extension
                );
            }
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            bail!(
                "{flag} {}: the folder {} does not exist",
                path.display(),
                parent.display()
            );
        }
        if path.is_dir() {
            bail!("{flag} {}: is a folder, not a file", path.display());
        }
        let existed = path.exists();
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
        if !existed {
            let _ = std::fs::remove_file(path);
        }
        Ok(())
    }

    /// Opens the destination for writing (a file is created or truncated).
    pub fn open(&self) -> anyhow::Result<Box<dyn Write + Send>> {
        Ok(match self {
            // Not locked, so that another thread may write it (see `stream_cpu`); answers are written in
            // large pieces, each taking the lock once.
            Destination::Stdout => Box::new(io::stdout()),
            Destination::File(path) => Box::new(
                File::create(path)
                    .with_context(|| format!("cannot create output file {}", path.display()))?,
            ),
        })
    }

    /// Writes all of `bytes` to the destination.
    pub fn write_all(&self, bytes: &[u8]) -> anyhow::Result<()> {
        let mut out = self.open()?;
        out.write_all(bytes)
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write to {}", self.describe()))
    }
}

/// Fails when standard output was closed before the start (`>&-`), naming what would have been lost.
pub fn require_stdout(what: &str) -> anyhow::Result<()> {
    if stdout_was_closed() {
        bail!(
            "standard output is closed, so {what} would be lost; write to a file or leave it open"
        );
    }
    Ok(())
}

/// Whether standard output was closed when the program started. The Rust runtime reopens a closed
/// standard stream on /dev/null before `main` (so writes to it would succeed and vanish), and it opens it
/// for reading and writing, which a shell's `> /dev/null` never does: that pair is the sign.
fn stdout_was_closed() -> bool {
    #[cfg(unix)]
    {
        use rustix::fs::{fcntl_getfl, fstat, stat, OFlags};
        let out = io::stdout();
        let read_write =
            fcntl_getfl(&out).is_ok_and(|flags| flags & OFlags::RWMODE == OFlags::RDWR);
        let is_null = match (fstat(&out), stat("/dev/null")) {
            (Ok(a), Ok(b)) => a.st_dev == b.st_dev && a.st_ino == b.st_ino,
            _ => false,
        };
        read_write && is_null
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Writes one line to stderr (a notice, a summary, a statistic), ignoring a failure: a stderr whose reader
/// has gone (`gpu-gjk query FILE 2>&1 | head -0`) or that was closed must not turn a run into a panic, as
/// `eprintln!` would. Standard output's broken pipe is what ends such a run (with exit code 141).
pub fn note(line: std::fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// Whether `error` comes from writing to a pipe whose reader has gone (`| head -1`).
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gpu-gjk-sink-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const SVG: Format = Format {
        extension: "svg",
        name: "SVG",
    };

    #[test]
    fn checks_leave_no_file_behind_and_name_the_problem() {
        let dir = scratch("check");
        let fresh = Destination::from_arg(&dir.join("chart.svg"));
        fresh.check("--chart", Some(SVG)).unwrap();
        assert!(
            !dir.join("chart.svg").exists(),
            "the check removes what it created"
        );
        Destination::from_arg(&dir.join("chart"))
            .check("--chart", Some(SVG))
            .unwrap();
        Destination::from_arg(&dir.join("CHART.SVG"))
            .check("--chart", Some(SVG))
            .unwrap();

        let wrong = Destination::from_arg(&dir.join("chart.png"))
            .check("--chart", Some(SVG))
            .unwrap_err()
            .to_string();
        assert!(
            wrong.contains("writes SVG") && wrong.contains(".png"),
            "{wrong}"
        );
        let missing = Destination::from_arg(&dir.join("nowhere/out.json"))
            .check("--json", None)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("does not exist"), "{missing}");
        let folder = Destination::from_arg(&dir)
            .check("--json", None)
            .unwrap_err()
            .to_string();
        assert!(folder.contains("is a folder"), "{folder}");

        // An existing file is checked without being truncated.
        let existing = dir.join("keep.json");
        std::fs::write(&existing, "kept").unwrap();
        Destination::from_arg(&existing)
            .check("--json", None)
            .unwrap();
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dash_is_standard_output() {
        assert!(Destination::from_arg(Path::new("-")).is_stdout());
        assert!(!Destination::from_arg(Path::new("./-")).is_stdout());
    }

    #[test]
    fn broken_pipes_are_recognised_through_context() {
        let error = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe))
            .context("cannot write to standard output");
        assert!(is_broken_pipe(&error));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
