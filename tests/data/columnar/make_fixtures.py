"""Writes one small shapes table and one pairs table per writer's layout, for tests/columnar_writers.rs.

The same shapes and pairs each time; only the writer (and so the column types it stores) changes:

    pyarrow.{arrow,parquet}    pyarrow, the canonical schema (fixed_size_list<float64, 3 or 4>)
    pyarrow_no_schema.parquet  pyarrow with store_schema=False: no embedded Arrow schema, so the lists read
                               back as list<list<float64>> and list<float64>, as non-Arrow writers store them
    polars.{arrow,parquet}     Polars from Python lists: large_list<large_list<float64>>, large_list<float64>
    duckdb.parquet             DuckDB's COPY ... (FORMAT parquet): list<list<float64>>, list<float64>
    list_view.{arrow,parquet}  pyarrow with the lists typed list_view<...> (in Parquet, the embedded Arrow
                               schema says list_view)

Run from this folder with a Python that has the three writers (they are not the project's requirements):

    python3 -m venv /tmp/venv-writers && /tmp/venv-writers/bin/pip install polars pyarrow duckdb
    /tmp/venv-writers/bin/python make_fixtures.py
"""

import os

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))

# A cube, a point sphere, a tetrahedron with a rounded skin, a segment capsule; ids in no order.
SHAPES = {
    "id": [7, 3, 12, 5],
    "points": [
        [[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)],
        [[0.0, 0.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.5, 0.0, 0.0], [0.0, 1.5, 0.0], [0.0, 0.0, 1.5]],
        [[-0.75, 0.0, 0.0], [0.75, 0.0, 0.0]],
    ],
    "radius": [0.0, 0.5, 0.125, 0.25],
}

# Separated, touching, overlapping and deep pairs; rotations of any length (the reader normalises them).
PAIRS = {
    "a": [7, 7, 3, 12, 5, 7, 12, 5],
    "b": [3, 12, 5, 5, 3, 7, 12, 7],
    "a_position": [
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [10.0, -2.0, 0.5],
        [1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [-3.0, 0.0, 0.0],
        [100.0, 200.0, -50.0],
    ],
    "a_rotation": [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 2.0],
        [0.1, 0.2, 0.3, 0.9],
        [0.0, 0.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.3, -0.2, 0.5, 0.7],
    ],
    "b_position": [
        [2.5, 0.0, 0.0],
        [0.5, 0.25, -0.25],
        [12.5, -2.0, 0.5],
        [1.2, 1.4, 0.9],
        [0.0, 0.6, 0.0],
        [1.5, 0.5, 0.0],
        [-2.0, 0.5, 0.5],
        [101.5, 201.0, -49.0],
    ],
    "b_rotation": [
        [0.0, 0.0, 0.0, 1.0],
        [0.5, 0.5, 0.5, 0.5],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.38268343236508984, 0.9238795325112867],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
    ],
}


def vec(width):
    return pa.list_(pa.float64(), width)


CANONICAL_SHAPES = pa.schema([("id", pa.uint32()), ("points", pa.list_(vec(3))), ("radius", pa.float64())])
CANONICAL_PAIRS = pa.schema(
    [("a", pa.uint32()), ("b", pa.uint32())]
    + [(f"{s}_{c}", vec(w)) for s in "ab" for c, w in (("position", 3), ("rotation", 4))]
)
# The pairs columns in the schema's order (the dict above lists them that way too).
assert list(PAIRS) == CANONICAL_PAIRS.names


def out(name):
    return os.path.join(HERE, name)


def pyarrow_tables():
    return (
        pa.Table.from_pydict(SHAPES, schema=CANONICAL_SHAPES),
        pa.Table.from_pydict(PAIRS, schema=CANONICAL_PAIRS),
    )


def write_pyarrow():
    shapes, pairs = pyarrow_tables()
    for table, name in ((shapes, "shapes"), (pairs, "pairs")):
        feather.write_feather(table, out(f"pyarrow_{name}.arrow"))
        pq.write_table(table, out(f"pyarrow_{name}.parquet"))
        pq.write_table(table, out(f"pyarrow_no_schema_{name}.parquet"), store_schema=False)


def write_list_view():
    view = pa.list_view(pa.float64())
    shapes = pa.Table.from_pydict(
        SHAPES, schema=pa.schema([("id", pa.uint32()), ("points", pa.list_view(view)), ("radius", pa.float64())])
    )
    pairs = pa.Table.from_pydict(
        PAIRS, schema=pa.schema([(n, pa.uint32() if n in "ab" else view) for n in CANONICAL_PAIRS.names])
    )
    feather.write_feather(shapes, out("list_view_shapes.arrow"), compression="uncompressed")
    feather.write_feather(pairs, out("list_view_pairs.arrow"), compression="uncompressed")
    pq.write_table(shapes, out("list_view_shapes.parquet"))
    pq.write_table(pairs, out("list_view_pairs.parquet"))


def write_polars():
    shapes = pl.DataFrame(SHAPES, schema_overrides={"id": pl.UInt32})
    pairs = pl.DataFrame(PAIRS, schema_overrides={"a": pl.UInt32, "b": pl.UInt32})
    for frame, name in ((shapes, "shapes"), (pairs, "pairs")):
        frame.write_parquet(out(f"polars_{name}.parquet"))
        frame.write_ipc(out(f"polars_{name}.arrow"))


def write_duckdb():
    shapes, pairs = pyarrow_tables()  # read by DuckDB's replacement scan, then cast to its own types
    con = duckdb.connect()
    con.register("shapes_in", shapes)
    con.register("pairs_in", pairs)
    con.execute(
        "COPY (SELECT id::UINTEGER AS id, points::DOUBLE[][] AS points, radius FROM shapes_in) "
        f"TO '{out('duckdb_shapes.parquet')}' (FORMAT parquet)"
    )
    columns = ", ".join(f"{c}::DOUBLE[] AS {c}" for c in CANONICAL_PAIRS.names[2:])
    con.execute(
        f"COPY (SELECT a::UINTEGER AS a, b::UINTEGER AS b, {columns} FROM pairs_in) "
        f"TO '{out('duckdb_pairs.parquet')}' (FORMAT parquet)"
    )


def main():
    write_pyarrow()
    write_list_view()
    write_polars()
    write_duckdb()
    print(f"pyarrow {pa.__version__}, polars {pl.__version__}, duckdb {duckdb.__version__}")
    for name in sorted(os.listdir(HERE)):
        if name.endswith((".arrow", ".parquet")):
            path = out(name)
            schema = feather.read_table(path).schema if name.endswith(".arrow") else pq.read_schema(path)
            types = ", ".join(f"{f.name}: {f.type}" for f in schema)
            print(f"{name} ({os.path.getsize(path)} bytes): {types}")


if __name__ == "__main__":
    main()
