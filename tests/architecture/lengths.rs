//! Small functions with one purpose: none in the algorithms (`src/gjk`, `src/epa`, `src/query`) or the kernels
//! (`shaders/`) is longer than 120 lines.

use std::path::{Path, PathBuf};

/// The files under `dir` whose names end in `.extension`.
pub fn sources(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// The length in lines of every function (`fn name(` to its closing brace) in a Rust or WGSL source.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("fn ") else { continue };
        let before = line[..at].trim();
        if !before.is_empty() && !before.starts_with("pub") && before != "const" {
            continue;
        }
        let name: String = line[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let mut depth = 0i32;
        let mut opened = false;
        for (j, l) in lines.iter().enumerate().skip(i) {
            depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
            opened |= l.contains('{');
            if opened && depth <= 0 {
                out.push((name.clone(), j - i + 1));
                break;
            }
        }
    }
    out
}

#[test]
fn no_function_of_the_algorithms_or_the_kernels_is_longer_than_120_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/gjk", "src/epa", "src/query"] {
        sources(&root.join(dir), "rs", &mut files);
    }
    sources(&root.join("shaders"), "wgsl", &mut files);
    let mut long = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        for (name, lines) in function_lengths(&text) {
            if lines > 120 {
                long.push(format!("{}: {name} has {lines} lines", file.display()));
            }
        }
    }
    assert!(files.len() > 20, "{} files", files.len());
    assert!(long.is_empty(), "{}", long.join("\n"));
}
