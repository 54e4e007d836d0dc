import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gpu_gjk_bin():
    """The `gpu-gjk` command line: $GPU_GJK_BIN, else debug/gpu-gjk in cargo's target dir ($CARGO_TARGET_DIR
    or target/; built by `cargo test`), else built here with cargo."""
    given = os.environ.get("GPU_GJK_BIN")
    if given:
        return given
    built = REPO / os.environ.get("CARGO_TARGET_DIR", "target") / "debug" / "gpu-gjk"
    if not built.exists():
        subprocess.run(
            ["cargo", "build", "--quiet", "--bin", "gpu-gjk"],
            cwd=REPO,
            check=True,
        )
    return str(built)


@pytest.fixture(scope="session")
def gpu_available():
    """Whether wgpu finds an adapter (software ones included). Without one the GPU tests skip, unless CI=true,
    where a missing adapter fails them (as the Rust GPU tests do)."""
    import gpu_gjk
    from batches import pairs_table, shapes_table

    try:
        gpu_gjk.query(shapes_table([1], [[[0.0, 0.0, 0.0]]]), pairs_table([1], [1]), backend="gpu")
    except RuntimeError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no GPU adapter with CI=true: {e}")
        pytest.skip(f"SKIPPED: no GPU adapter: {e}")
    return True
