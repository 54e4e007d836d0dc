"""The Python module and `gpu-gjk query` on the same pairs: every field equal (floats exactly), on the CPU and
on the GPU, and the same problem named for bad rows."""

import json
import subprocess

import pyarrow as pa
import pytest

import gpu_gjk
from batches import json_lines, pairs_table, random_batch, shapes_table


def run_cli(binary, tmp_path, text, *args):
    path = tmp_path / "pairs.jsonl"
    path.write_text(text)
    done = subprocess.run([binary, "query", str(path), *args], capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, lines


def assert_same_answers(cli_lines, table):
    rows = table.to_pylist()
    assert len(rows) == len(cli_lines)
    for k, (line, row) in enumerate(zip(cli_lines, rows)):
        # Each JSON field equals its column (== on floats: exactly); the columns the line omits are null.
        for name in gpu_gjk.ANSWER_COLUMNS:
            assert row[name] == line.get(name), f"row {k}, {name}: {row[name]!r} != {line.get(name)!r}"


@pytest.mark.parametrize("kind", ["penetration", "distance", "intersection"])
def test_cpu_answers_equal_the_command_line(gpu_gjk_bin, tmp_path, kind):
    shapes, pairs = random_batch(11, 400)
    code, lines = run_cli(gpu_gjk_bin, tmp_path, json_lines(shapes, pairs), "--backend", "cpu", "--kind", kind)
    assert code == 0
    answers = gpu_gjk.query(shapes, pairs, kind=kind, backend="cpu")
    assert_same_answers(lines, answers)
    assert any(r["intersecting"] for r in lines) and not all(r["intersecting"] for r in lines)


def test_gpu_answers_equal_the_command_line(gpu_gjk_bin, gpu_available, tmp_path):
    shapes, pairs = random_batch(12, 300)
    for kind in ("penetration", "distance"):
        code, lines = run_cli(gpu_gjk_bin, tmp_path, json_lines(shapes, pairs), "--backend", "gpu", "--kind", kind)
        assert code == 0
        assert_same_answers(lines, gpu_gjk.query(shapes, pairs, kind=kind, backend="gpu"))


def test_bad_rows_name_the_problem_the_command_line_names(gpu_gjk_bin, tmp_path):
    """Each bad row against the same pair as a JSON line: the problem after the field is word for word the
    same; the field is the column (`a.rotation` is `a_rotation`, `a.points[1][2]` is `points[1][2]` of the
    shapes row that `a` refers to)."""
    good = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    shapes = shapes_table(
        [1, 2, 3, 4, 5],
        [good, [], [[0.0, 0.0, 0.0], [0.0, 0.0, 3e9]], good, good],
        [0.5, 0.0, 0.0, -0.25, 2e9],
    )
    cases = [
        # (a, b, b_position, b_rotation, field in the JSON message, expected column text in ours)
        (1, 1, [1e10, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], "b.position[0]", "pairs row 0: b_position[0]: "),
        (1, 1, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], "b.rotation", "pairs row 1: b_rotation: "),
        (2, 1, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], "a.points", "shapes row 1: points: "),
        (1, 3, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], "b.points[1][2]", "shapes row 2: points[1][2]: "),
        (4, 1, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], "a.radius", "shapes row 3: radius: "),
        (1, 5, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], "b.radius", "shapes row 4: radius: "),
        (1, 1, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], None, None),
    ]
    pairs = pairs_table(
        [c[0] for c in cases], [c[1] for c in cases], b_position=[c[2] for c in cases],
        b_rotation=[c[3] for c in cases],
    )
    code, lines = run_cli(gpu_gjk_bin, tmp_path, json_lines(shapes, pairs), "--backend", "cpu")
    assert code == 2
    answers = gpu_gjk.query(shapes, pairs)
    ours = answers.column("error").to_pylist()
    for k, (case, line, error) in enumerate(zip(cases, lines, ours)):
        field, column = case[4], case[5]
        if field is None:
            assert error is None and "error" not in line
            continue
        prefix = f"line {k + 1}: {field}: "
        assert line["error"].startswith(prefix), line["error"]
        problem = line["error"][len(prefix):]
        assert error.startswith(f"pairs row {k}: "), error
        assert error.endswith(column + problem), (error, line["error"])
    assert_same_answers(lines[-1:], answers.slice(len(cases) - 1))
