//! Whether a file a command is about to write is one it reads (or another it writes). Opening an output
//! truncates it, so `query pairs.jsonl --output pairs.jsonl` would empty the input before its first line
//! is read and lose both the pairs and their answers. Paths are compared as files, not as names: `./a`,
//! `dir/../a`, a symbolic link to `a` and a hard link to `a` are all `a`.

use anyhow::bail;
use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// Fails, naming both paths, when the file `flag` names (`output`) is one of `others`, each given with
/// what it is (`"the input"`, `"--shapes"`). An output `-` (standard output) is passed; an input `-` is
/// compared with the file standard input reads, so `query --output a.jsonl < a.jsonl` is refused too.
pub fn refuse_same_file(flag: &str, output: &Path, others: &[(&str, &Path)]) -> anyhow::Result<()> {
    if is_dash(output) {
        return Ok(());
    }
    for &(what, other) in others {
        if is_dash(other) && is_standard_input(output) {
            bail!(
                "{flag} {}: this is the file standard input reads ({what}), which writing it would \
                 destroy; name another file",
                output.display()
            );
        }
        if !is_dash(other) && same_file(output, other) {
            bail!(
                "{flag} {}: this is the same file as {what} {}, which writing it would destroy; name \
                 another file",
                output.display(),
                other.display()
            );
        }
    }
    Ok(())
}

fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `a` and `b` are one file that writing `a` would destroy. Two files that exist are compared by
/// device and inode where there are such (a hard link has its own name and canonical path), else by
/// canonical path; only a regular file counts, since opening a terminal, `/dev/null` or a named pipe for
/// writing truncates nothing (`query --output /dev/stdout` typed at a terminal reads and writes the same
/// terminal). A file that does not exist yet is no input; two that do not are one when their folders are one
/// and their names equal (two outputs named `out.arrow` and `./out.arrow`).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(ma), Ok(_)) if !ma.is_file() => false,
        (Ok(ma), Ok(mb)) => same_inode(&ma, &mb) || canonical_equal(a, b),
        (Err(_), Err(_)) => match (unwritten(a), unwritten(b)) {
            (Some(a), Some(b)) => a == b,
            // A folder that cannot be resolved fails the output checks later, with its own message.
            _ => a == b,
        },
        _ => false,
    }
}

#[cfg(unix)]
fn same_inode(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &Metadata, _: &Metadata) -> bool {
    false
}

fn canonical_equal(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The most symbolic links followed from a name to the file it would create (Linux's own limit, `ELOOP`).
const MAX_LINK_HOPS: usize = 40;

/// A file yet to be written, as its canonical folder and its name. A symbolic link to nothing (yet) is the
/// file it points to, which opening it for writing creates: two outputs `link` (to `target`) and `target`
/// are one file.
fn unwritten(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINK_HOPS {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let parent = parent.canonicalize().ok()?;
        let named = parent.join(path.file_name()?);
        match std::fs::read_link(&named) {
            // A relative target is relative to the link's folder (`join` keeps an absolute one as it is).
            Ok(target) => path = parent.join(target),
            Err(_) => return Some(named),
        }
    }
    None
}

/// Whether standard input reads the file `path` (a shell's `< path`).
#[cfg(unix)]
fn is_standard_input(path: &Path) -> bool {
    use std::os::fd::AsFd;
    let Ok(stdin) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (
        std::fs::File::from(stdin).metadata(),
        std::fs::metadata(path),
    ) {
        (Ok(stdin), Ok(file)) => file.is_file() && same_inode(&stdin, &file),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_standard_input(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gpu-gjk-same-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn names_of_one_file_are_one_file() {
        let dir = scratch("names");
        let a = dir.join("a.jsonl");
        std::fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &dir.join("./a.jsonl")));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        assert!(same_file(&a, &dir.join("sub/../a.jsonl")));
        std::fs::write(dir.join("b.jsonl"), "x").unwrap();
        assert!(!same_file(&a, &dir.join("b.jsonl")));
        // A file not written yet is no input, and two such names are one file when they resolve alike.
        assert!(!same_file(&dir.join("new.jsonl"), &a));
        assert!(same_file(&dir.join("new.arrow"), &dir.join("./new.arrow")));
        assert!(!same_file(&dir.join("new.arrow"), &dir.join("other.arrow")));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, dir.join("link.jsonl")).unwrap();
            assert!(same_file(&dir.join("link.jsonl"), &a));
            std::fs::hard_link(&a, dir.join("hard.jsonl")).unwrap();
            assert!(same_file(&dir.join("hard.jsonl"), &a));
            // Links to files not written yet, relative and absolute, and a chain of two: the file they create.
            std::os::unix::fs::symlink("later.arrow", dir.join("dangling.arrow")).unwrap();
            assert!(same_file(
                &dir.join("dangling.arrow"),
                &dir.join("later.arrow")
            ));
            assert!(same_file(
                &dir.join("later.arrow"),
                &dir.join("dangling.arrow")
            ));
            std::os::unix::fs::symlink(dir.join("dangling.arrow"), dir.join("chain.arrow"))
                .unwrap();
            assert!(same_file(
                &dir.join("chain.arrow"),
                &dir.join("later.arrow")
            ));
            assert!(!same_file(
                &dir.join("dangling.arrow"),
                &dir.join("other.arrow")
            ));
            // A loop of links resolves to nothing, and names only itself.
            std::os::unix::fs::symlink("loop2.arrow", dir.join("loop1.arrow")).unwrap();
            std::os::unix::fs::symlink("loop1.arrow", dir.join("loop2.arrow")).unwrap();
            assert!(!same_file(
                &dir.join("loop1.arrow"),
                &dir.join("later.arrow")
            ));
        }
        let err = refuse_same_file(
            "--output",
            &a,
            &[
                ("the input", dir.join("b.jsonl").as_path()),
                ("the input", a.as_path()),
            ],
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("--output") && err.contains("the same file as the input"),
            "{err}"
        );
        refuse_same_file("--output", Path::new("-"), &[("the input", &a)]).unwrap();
        // Not a regular file: writing it truncates nothing.
        #[cfg(unix)]
        {
            let null = Path::new("/dev/null");
            assert!(!same_file(null, null));
            refuse_same_file("--output", null, &[("the input", null)]).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
