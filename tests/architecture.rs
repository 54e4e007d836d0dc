//! The architecture, checked: the library's modules depend one way, lowest first (the order in `src/lib.rs`),
//! and no two modules use each other. The test reads the sources, so a change that breaks a layer fails here
//! whatever it compiles to.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer: a module may use modules of lower layers only.
const LAYERS: [(&str, u32); 22] = [
    ("real", 0),
    ("error", 0),
    ("mesh_gen", 0),
    ("pose", 1),
    ("shape", 2),
    ("instance", 3),
    ("broad_phase", 4),
    ("scenario", 4),
    ("gjk", 4),
    ("epa", 5),
    ("query", 6),
    ("batch", 7),
    ("gpu", 7),
    ("resolve", 8),
    ("validate", 8),
    ("io", 9),
    ("bench", 9),
    ("stress", 9),
    ("cli", 10),
    // The demo replays and writes the command line's pair format (inspect, copy pair).
    ("app", 11),
    ("lib", 12),
    ("main", 12),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(m, _)| *m == module)
        .unwrap_or_else(|| panic!("module `{module}` has no layer in tests/layers.rs"))
        .1
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/cli/query.rs` is `cli::query`, `src/cli/mod.rs` is `cli`, `src/lib.rs` is `lib`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src/");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The identifiers following `prefix` in `text`: `crate::gjk::{..}` gives `gjk`.
fn following(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .filter_map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The library code of a file: everything before its `#[cfg(test)]` module (tests may reach further), without
/// comments (a doc link names a layer it does not use).
fn library_code(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

struct Uses {
    /// Module path of each file, and the modules it uses: (top-level modules, sibling modules).
    files: Vec<(Vec<String>, BTreeSet<String>, BTreeSet<String>)>,
}

fn scan() -> Uses {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let mut files = Vec::new();
    sources(src, &mut files);
    let files = files
        .iter()
        .map(|file| {
            let path = module_path(src, file);
            let text = std::fs::read_to_string(file).expect("a source file");
            let code = library_code(&text);
            let crate_uses: BTreeSet<String> = following(&code, "crate::").into_iter().collect();
            let siblings: BTreeSet<String> = following(&code, "super::").into_iter().collect();
            (path, crate_uses, siblings)
        })
        .collect();
    Uses { files }
}

#[test]
fn no_module_uses_a_module_of_a_higher_layer() {
    let mut wrong = Vec::new();
    for (path, crate_uses, _) in scan().files {
        let own = &path[0];
        for used in &crate_uses {
            if used == own || LAYERS.iter().all(|(m, _)| m != used) {
                continue;
            }
            if layer(used) > layer(own) || (layer(used) == layer(own) && used != own) {
                wrong.push(format!("{} uses crate::{used}", path.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

#[test]
fn no_two_modules_use_each_other() {
    // Edges between modules: top-level (crate::x) and between siblings under one parent (super::x).
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, crate_uses, siblings) in scan().files {
        let from = path.join("::");
        let top = edges.entry(path[0].clone()).or_default();
        top.extend(crate_uses.iter().filter(|u| **u != path[0]).cloned());
        if path.len() >= 2 {
            let parent = path[..path.len() - 1].join("::");
            for s in siblings {
                edges
                    .entry(from.clone())
                    .or_default()
                    .insert(format!("{parent}::{s}"));
            }
        }
    }
    let mut mutual = Vec::new();
    for (a, used) in &edges {
        for b in used {
            if a < b && edges.get(b).is_some_and(|back| back.contains(a)) {
                mutual.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(
        mutual.is_empty(),
        "modules using each other:\n{}",
        mutual.join("\n")
    );
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

/// Small functions with one purpose: none in the algorithms (`src/gjk`, `src/epa`, `src/query`) or the kernels
/// (`shaders/`) is longer than 120 lines.
#[test]
fn no_function_of_the_algorithms_or_the_kernels_is_longer_than_120_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/gjk", "src/epa", "src/query"] {
        sources(&root.join(dir), &mut files);
    }
    fn wgsl(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("shaders/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                wgsl(&path, out);
            } else if path.extension().is_some_and(|e| e == "wgsl") {
                out.push(path);
            }
        }
    }
    wgsl(&root.join("shaders"), &mut files);
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
