//! The architecture, checked on the sources (so a change that breaks it fails here whatever it compiles to):
//!
//! - layers: each top-level module uses only modules of its own or a lower group of [`LIBRARY_LAYERS`]; the
//!   binary crate's modules ([`BINARY_LAYERS`]) sit above the whole library;
//! - no cycle between top-level modules, and no cycle between files, of any length.
//!
//! The sources are read as syntax trees (`syn`) from both crate roots, following every `mod` declaration; every
//! path counts: `use` trees (groups, `self::`, `super::` chains, `crate::`, `gpu_gjk::`), paths in expressions,
//! types and patterns, paths in macro arguments, through the names `use` brings in and re-exports. Code compiled
//! into the tests only (`#[cfg(test)]` items) is left out. `planted.rs` plants one break of each kind in a copy
//! of `src/` and checks that each is reported.

mod lengths;
mod planted;
mod resolve;
mod rules;
mod tree;

use rules::Layers;
use std::path::Path;

/// The library's top-level modules in groups, lowest first. A module may use the modules of its own group and
/// of lower ones (peers of one group may use each other, one way: the cycle checks see to that). The crate roots
/// (`src/lib.rs`, `src/main.rs`) may use everything.
const LIBRARY_LAYERS: &[&[&str]] = &[
    &["real", "error", "text"],
    &["pose"],
    &["shape"],
    &["instance"],
    &["broad_phase", "scenario", "gjk"],
    &["epa"],
    &["query"],
    // The GPU physics takes the CPU physics' world description and bodies, and its contact check runs the CPU's
    // manifold.
    &["manifold", "sat", "batch", "physics", "gpu"],
    &["resolve", "validate"],
    // Batches read and answered: JSON Lines, Arrow and Parquet, the batch drivers on the CPU and the GPU.
    &["io"],
];

/// The binary crate's modules (declared in `src/main.rs`), in groups above every library module. `one_pair`
/// (the program's one-pair calls) serves them all; the demo replays and writes the command line's pair format
/// (inspect, copy pair).
const BINARY_LAYERS: &[&[&str]] = &[&["one_pair"], &["bench", "stress"], &["cli"], &["app"]];

const LAYERS: Layers = Layers {
    library: LIBRARY_LAYERS,
    binary: BINARY_LAYERS,
};

#[test]
fn the_modules_keep_their_layers_and_no_module_or_file_is_in_a_cycle() {
    let findings = rules::check(Path::new(env!("CARGO_MANIFEST_DIR")), &LAYERS);
    assert!(findings.is_empty(), "{}", rules::report(&findings));
}

/// A file no `mod` declares is not compiled, and not seen by the checks either.
#[test]
fn every_source_file_is_in_a_module_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = tree::Tree::read(root);
    let mut on_disk = Vec::new();
    lengths::sources(&root.join("src"), "rs", &mut on_disk);
    let unseen: Vec<String> = on_disk
        .iter()
        .map(|f| f.strip_prefix(root).expect("under the crate").to_path_buf())
        .filter(|f| !tree.files.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    assert!(tree.files.len() > 100, "{} files", tree.files.len());
    assert!(
        unseen.is_empty(),
        "files under src/ no `mod` declares: {unseen:?}"
    );
}
