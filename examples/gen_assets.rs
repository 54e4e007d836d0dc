//! Writes the OBJ assets of `assets/` (and its README) from `gpu_gjk::scenario::mesh_gen`.
//!
//! `cargo run --release --example gen_assets [OUT_DIR]`; the default folder is `assets/` at the crate root.
//! The output is deterministic: `tests/assets.rs` checks the committed files against it.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets"));
    for path in gpu_gjk::scenario::mesh_gen::write_all(&dir)? {
        let bytes = std::fs::metadata(&path)?.len();
        println!("wrote {} ({bytes} bytes)", path.display());
    }
    Ok(())
}
