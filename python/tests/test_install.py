"""The module under test is the wheel a user installs (in CI, the one `.ci/python` built with `maturin build
--release` and installed), and the install instructions show both ways with what they take."""

import base64
import hashlib
import importlib.metadata
import os
import pathlib
import zipfile

import pytest

import gpu_gjk

REPO = pathlib.Path(__file__).resolve().parents[2]


def record_hashes(text):
    """path -> sha256 entry of a wheel's RECORD."""
    hashes = {}
    for line in text.splitlines():
        path, digest, _ = line.rsplit(",", 2)
        hashes[path] = digest
    return hashes


def sha256_entry(path):
    digest = hashlib.sha256(pathlib.Path(path).read_bytes()).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_ci_tests_the_wheel_it_built():
    wheel = os.environ.get("GPU_GJK_WHEEL")
    if not wheel:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but GPU_GJK_WHEEL is not set: .ci/python names the wheel it built and installed")
        pytest.skip("GPU_GJK_WHEEL not set (.ci/python sets it to the wheel it built)")
    with zipfile.ZipFile(wheel) as archive:
        [record] = [name for name in archive.namelist() if name.endswith(".dist-info/RECORD")]
        built = record_hashes(archive.read(record).decode())
    installed = record_hashes(importlib.metadata.distribution("gpu-gjk").read_text("RECORD"))
    native = pathlib.Path(gpu_gjk._native.__file__)
    name = f"gpu_gjk/{native.name}"
    # The module imported is the installed file, and it is the wheel's, byte for byte.
    assert sha256_entry(native) == installed[name] == built[name]
    assert pathlib.Path(gpu_gjk.__file__).parent == native.parent


def test_install_instructions_show_both_ways_and_their_times():
    readme = (REPO / "README.md").read_text()
    guide = (REPO / "docs" / "python.md").read_text()
    assert "a few minutes" not in readme + guide
    for text in (readme, guide):
        assert "pip install ./python" in text
        assert "maturin build --release" in text
        assert "pip install target/wheels/gpu_gjk-*.whl" in text
    install = guide[guide.index("## Install"):guide.index("## `gpu_gjk.query`")]
    # The measured times, with the machine and the date.
    assert "| `pip install ./python`" in install and "| `maturin build --release`" in install
    assert "2-core" in install and "2026-" in install
