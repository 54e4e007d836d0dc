//! `kind="manifold"`'s answers as NumPy arrays: per pair row its status (a code into a list of names), its
//! normal (masked where not finite: no penetration answer) and the offsets of its points in the flat point
//! arrays (`point_a`, `point_b`, `depth`, `feature_id`), as `gpu-gjk query --kind manifold` finds them; a
//! failed row has no status and no points, and its message in `error_rows` / `error_messages`.

use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::Manifold;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The status code of a failed row.
const NO_STATUS: u8 = u8::MAX;

pub struct Manifolds {
    status: Vec<u8>,
    normal: Vec<f64>,
    has_normal: Vec<bool>,
    point_offsets: Vec<i64>,
    point_a: Vec<f64>,
    point_b: Vec<f64>,
    depth: Vec<f64>,
    feature_id: Vec<u64>,
    error_rows: Vec<u64>,
    error_messages: Vec<String>,
}

impl Manifolds {
    /// `rows` rows in order: the failed ones (`errors`, by row, ascending) carry their message, the others
    /// take the manifolds in order.
    pub fn new(rows: usize, errors: Vec<(usize, String)>, manifolds: &[Manifold]) -> Self {
        let (error_rows, error_messages): (Vec<u64>, Vec<String>) =
            errors.into_iter().map(|(r, m)| (r as u64, m)).unzip();
        debug_assert_eq!(rows, manifolds.len() + error_rows.len());
        let points: usize = manifolds.iter().map(|m| m.points.len()).sum();
        let mut out = Manifolds {
            status: Vec::with_capacity(rows),
            normal: Vec::with_capacity(3 * rows),
            has_normal: Vec::with_capacity(rows),
            point_offsets: Vec::with_capacity(rows + 1),
            point_a: Vec::with_capacity(3 * points),
            point_b: Vec::with_capacity(3 * points),
            depth: Vec::with_capacity(points),
            feature_id: Vec::with_capacity(points),
            error_rows,
            error_messages,
        };
        out.point_offsets.push(0);
        let mut failed = out.error_rows.iter().peekable();
        let mut manifolds = manifolds.iter();
        for row in 0..rows {
            if failed.next_if_eq(&&(row as u64)).is_some() {
                out.status.push(NO_STATUS);
                out.normal.extend([0.0; 3]);
                out.has_normal.push(false);
            } else {
                let m = manifolds.next().expect("one manifold per answered row");
                out.status.push(
                    PenetrationStatus::ALL
                        .iter()
                        .position(|s| *s == m.status)
                        .expect("every status is in its ALL list") as u8,
                );
                let finite = m.normal.is_finite();
                out.normal.extend(if finite {
                    m.normal.to_array()
                } else {
                    [0.0; 3]
                });
                out.has_normal.push(finite);
                for p in &m.points {
                    out.point_a.extend(p.point_a.to_array());
                    out.point_b.extend(p.point_b.to_array());
                    out.depth.push(p.depth);
                    out.feature_id.push(p.id.packed());
                }
            }
            out.point_offsets.push(out.depth.len() as i64);
        }
        out
    }

    /// A dict of the arrays: `status` (`uint8` codes into `status_names`, 255 on a failed row), `normal`
    /// `(n, 3)` with `has_normal`, `point_offsets` `(n + 1,)` (row `k`'s points are `point_offsets[k]` to
    /// `point_offsets[k + 1]`), `point_a` and `point_b` `(P, 3)`, `depth` `(P,)`, `feature_id` `(P,)`
    /// `uint64`, `error_rows` and `error_messages`.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        let vectors = |v: Vec<f64>| -> PyResult<_> {
            let rows = v.len() / 3;
            let array = Array2::from_shape_vec((rows, 3), v)
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
            Ok(array.into_pyarray(py))
        };
        dict.set_item("status", PyArray1::from_vec(py, self.status))?;
        dict.set_item(
            "status_names",
            PenetrationStatus::ALL.map(PenetrationStatus::name).to_vec(),
        )?;
        dict.set_item("normal", vectors(self.normal)?)?;
        dict.set_item("has_normal", PyArray1::from_vec(py, self.has_normal))?;
        dict.set_item("point_offsets", PyArray1::from_vec(py, self.point_offsets))?;
        dict.set_item("point_a", vectors(self.point_a)?)?;
        dict.set_item("point_b", vectors(self.point_b)?)?;
        dict.set_item("depth", PyArray1::from_vec(py, self.depth))?;
        dict.set_item("feature_id", PyArray1::from_vec(py, self.feature_id))?;
        dict.set_item("error_rows", PyArray1::from_vec(py, self.error_rows))?;
        dict.set_item("error_messages", self.error_messages)?;
        Ok(dict)
    }
}
