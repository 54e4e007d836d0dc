//! The checks, checked: a copy of `src/` with one break of each kind planted must fail each rule at the
//! planted line, and what the rules allow (test code reaching up) must pass.

use crate::rules::{self, Finding, Rule};
use crate::LAYERS;
use std::path::{Path, PathBuf};

/// A copy of the crate's `src/` in a directory of its own, removed when dropped.
struct SrcCopy {
    root: PathBuf,
}

impl SrcCopy {
    fn of_src() -> SrcCopy {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let root = std::env::temp_dir().join(format!(
            "gpu-gjk-architecture-{}-{nanos}",
            std::process::id()
        ));
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &root.join("src"),
        );
        SrcCopy { root }
    }

    /// Writes `text` into `file` (under `src/`) after its inner doc comment (`at_end`: after everything);
    /// returns the line the text starts on.
    fn plant(&self, file: &str, at_end: bool, text: &str) -> usize {
        let path = self.root.join("src").join(file);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = old.lines().collect();
        let at = match at_end {
            true => lines.len(),
            false => lines.iter().take_while(|l| l.starts_with("//!")).count(),
        };
        let new = [&lines[..at], &[text], &lines[at..]].concat().join("\n") + "\n";
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("a directory");
        std::fs::write(&path, new).expect("a planted file");
        at + 1
    }

    fn check(&self) -> Vec<Finding> {
        rules::check(&self.root, &LAYERS)
    }
}

impl Drop for SrcCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from).expect("a source directory") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a copied file");
        }
    }
}

fn at(findings: &[Finding], rule: Rule, place: &str) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f.rule == rule && f.places.iter().any(|p| p == place))
        .map(|f| f.message.clone())
        .collect()
}

#[test]
fn every_planted_layer_break_is_reported_at_its_line() {
    let copy = SrcCopy::of_src();
    let grouped = copy.plant("gjk/config.rs", false, "use crate::{gpu, query};");
    let upward = copy.plant(
        "gjk/simplex.rs",
        false,
        "fn planted() -> u32 {\n    super::super::gpu::WORKGROUP_SIZE\n}",
    ) + 1;
    let below_tests = copy.plant("gjk/signed_volumes.rs", true, "use crate::batch::Planted;");
    // Tests may reach further: an upward import compiled into the tests only is no break.
    let test_only = copy.plant(
        "gjk/signed_volumes.rs",
        true,
        "#[cfg(test)]\nuse crate::validate::Planted;",
    ) + 1;
    let findings = copy.check();
    let report = rules::report(&findings);

    let grouped = at(
        &findings,
        Rule::Layer,
        &format!("src/gjk/config.rs:{grouped}"),
    );
    assert_eq!(grouped.len(), 2, "{report}");
    assert!(grouped.iter().any(|m| m.contains("uses `gpu`")), "{report}");
    assert!(
        grouped.iter().any(|m| m.contains("uses `query`")),
        "{report}"
    );
    let upward = at(
        &findings,
        Rule::Layer,
        &format!("src/gjk/simplex.rs:{upward}"),
    );
    assert_eq!(upward.len(), 1, "{report}");
    assert!(
        upward[0].contains("`super::super::gpu::WORKGROUP_SIZE`"),
        "{report}"
    );
    let below = format!("src/gjk/signed_volumes.rs:{below_tests}");
    assert_eq!(at(&findings, Rule::Layer, &below).len(), 1, "{report}");
    let test_only = format!("src/gjk/signed_volumes.rs:{test_only}");
    assert!(
        at(&findings, Rule::Layer, &test_only).is_empty(),
        "{report}"
    );
    // The message says which rule broke, where, and where the table is.
    assert!(report.contains("tests/architecture/main.rs"), "{report}");
    assert!(report.contains("lower group"), "{report}");
    assert_eq!(
        findings.iter().filter(|f| f.rule == Rule::Layer).count(),
        4,
        "{report}"
    );
}

#[test]
fn a_planted_cycle_of_three_files_is_reported_whole() {
    let copy = SrcCopy::of_src();
    copy.plant(
        "shape/mod.rs",
        false,
        "mod planted_a;\nmod planted_b;\n#[path = \"planted/c.rs\"]\nmod planted_c;",
    );
    // Three path styles: a `use` through `super::`, a path in a type, a `crate::` path to a `#[path]` module.
    copy.plant(
        "shape/planted_a.rs",
        true,
        "use super::planted_b::B;\npub struct A(B);",
    );
    copy.plant(
        "shape/planted_b.rs",
        true,
        "pub struct B;\npub fn c() -> Option<super::planted_c::C> {\n    None\n}",
    );
    copy.plant(
        "shape/planted/c.rs",
        true,
        "pub struct C(Box<crate::shape::planted_a::A>);",
    );
    let findings = copy.check();
    let report = rules::report(&findings);
    let cycles: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule == Rule::FileCycle)
        .collect();
    assert_eq!(cycles.len(), 1, "{report}");
    let mut files: Vec<&str> = cycles[0]
        .places
        .iter()
        .map(|p| p.split(':').next().unwrap_or(p))
        .collect();
    assert_eq!(files.first(), files.last(), "{report}");
    files.pop();
    files.sort_unstable();
    let planted = [
        "src/shape/planted/c.rs",
        "src/shape/planted_a.rs",
        "src/shape/planted_b.rs",
    ];
    assert_eq!(files, planted, "{report}");
    assert_eq!(findings.len(), 1, "{report}");
}

#[test]
fn peers_may_use_each_other_one_way_but_not_both() {
    let copy = SrcCopy::of_src();
    // `gjk` and `broad_phase` share a group: one way is allowed, both ways is a cycle of modules.
    copy.plant("gjk/trace.rs", false, "use crate::broad_phase::Aabb;");
    assert!(copy.check().is_empty(), "{}", rules::report(&copy.check()));
    copy.plant("broad_phase/sweep.rs", false, "use crate::gjk::GjkConfig;");
    let findings = copy.check();
    let report = rules::report(&findings);
    let cycles: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule == Rule::ModuleCycle)
        .collect();
    assert_eq!(cycles.len(), 1, "{report}");
    assert!(
        cycles[0].message.contains("broad_phase") && cycles[0].message.contains("gjk"),
        "{report}"
    );
}

#[test]
fn a_module_missing_from_the_table_and_an_unreadable_file_are_reported() {
    let copy = SrcCopy::of_src();
    copy.plant("lib.rs", true, "pub mod planted;");
    copy.plant("planted.rs", true, "fn broken( {");
    let findings = copy.check();
    let report = rules::report(&findings);
    assert!(
        findings
            .iter()
            .any(|f| f.rule == Rule::Table && f.message.contains("`planted`")),
        "{report}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f.rule == Rule::Unread && f.places[0].starts_with("src/planted.rs:1")),
        "{report}"
    );
}

#[test]
fn in_the_binary_crate_a_library_module_imported_at_the_root_is_the_librarys() {
    let copy = SrcCopy::of_src();
    copy.plant("main.rs", true, "mod planted;\nuse gpu_gjk::gpu;");
    copy.plant(
        "planted.rs",
        true,
        "pub fn size() -> u32 {\n    crate::gpu::WORKGROUP_SIZE\n}",
    );
    let tree = crate::tree::Tree::read(&copy.root);
    let reference = tree
        .references()
        .into_iter()
        .find(|r| tree.files[r.file] == Path::new("src/planted.rs"))
        .expect("the planted path");
    assert_eq!(reference.from.krate, crate::tree::Crate::Binary);
    assert_eq!(reference.target.krate, crate::tree::Crate::Library);
    assert_eq!(reference.target.path, ["gpu", "workgroup"]);
    // The binary's modules sit above the library: no layer break, but the module needs a group.
    let findings = copy.check();
    let report = rules::report(&findings);
    assert!(findings.iter().all(|f| f.rule == Rule::Table), "{report}");
    assert!(
        findings
            .iter()
            .any(|f| f.message.contains("Binary module `planted`")),
        "{report}"
    );
}
