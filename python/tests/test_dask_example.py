"""The Dask example's command line: its help in full, with help on every option, and lines that say what ran
(one CPU thread, or the GPU)."""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("distributed")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_scale_out.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("dask_scale_out", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_help_is_whole_and_every_option_has_help(example):
    shown = subprocess.run([sys.executable, str(EXAMPLE), "--help"], capture_output=True, text=True, check=True)
    text = " ".join(shown.stdout.split())
    # The description is the whole docstring, not its first line cut mid-sentence.
    assert " ".join(example.__doc__.split()) in text
    assert "At small sizes the cluster's overhead dominates" in text
    for action in example.parser()._actions:
        if action.dest != "help":
            assert action.help and len(action.help) > 20, action.dest
    for backend in ("cpu", "gpu", "auto", "vulkan", "gl", "metal", "dx12"):
        assert f"{backend}: " in text


def test_output_lines_say_what_ran(example):
    assert example.single_label("cpu") == "one process, one CPU thread"
    assert example.single_label("gpu") == "one process, on the GPU (one CPU thread reading the rows)"
    assert example.single_label("auto") == (
        "one process, on a hardware GPU, else the CPU (one CPU thread reading the rows)")
    assert example.cluster_label(2, 20, "cpu") == "2 worker processes, one CPU thread each, 20 partitions"
    assert example.cluster_label(2, 4, "vulkan") == (
        "2 worker processes, each on the GPU (Vulkan) with one CPU thread, 4 partitions")
    with pytest.raises(SystemExit):
        example.parser().parse_args(["--backend", "cuda"])
