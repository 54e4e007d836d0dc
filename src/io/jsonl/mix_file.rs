//! A seeded random mix written as a `query` input file: what `bench --io` reads and the I/O benchmarks time.

use super::pair_line;
use crate::scenario::{random_scene, MixSpec};
use anyhow::Context;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes the scene as a `query` input file; returns its size in bytes.
pub fn write_mix_file(path: &Path, seed: u64, pairs: usize, mix: &MixSpec) -> anyhow::Result<u64> {
    let scene = random_scene(seed, pairs, mix);
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = BufWriter::new(file);
    for &[ia, ib] in &scene.pairs {
        let (a, b) = (&scene.instances[ia as usize], &scene.instances[ib as usize]);
        let line = pair_line(
            &scene.shapes[a.shape as usize],
            &a.pose.to_f64(),
            &scene.shapes[b.shape as usize],
            &b.pose.to_f64(),
        );
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(std::fs::metadata(path)?.len())
}
