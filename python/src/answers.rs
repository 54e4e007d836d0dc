//! The answers table as NumPy arrays: one row per pair row, the command line's answer fields
//! ([`AnswerFields`]) as columns, with masks for the cells the JSON answer omits, and `error`.

use gpu_gjk::cli::{AnswerFields, PairAnswer};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The columns being filled; a row that failed keeps zeros under a false mask.
#[derive(Default)]
pub struct Answers {
    answered: Vec<bool>,
    has_contact: Vec<bool>,
    intersecting: Vec<bool>,
    distance: Vec<f64>,
    witness_a: Vec<f64>,
    witness_b: Vec<f64>,
    normal: Vec<f64>,
    iterations: Vec<u32>,
    status: Vec<Option<&'static str>>,
    penetration_status: Vec<Option<&'static str>>,
    depth: Vec<f64>,
    contact_a: Vec<f64>,
    contact_b: Vec<f64>,
    error: Vec<Option<String>>,
}

impl Answers {
    /// The rows in order: `rows[k]` is `Ok(i)` for the `i`-th answer in `answers`, or the row's error.
    pub fn new(rows: Vec<Result<usize, String>>, answers: &[PairAnswer]) -> Self {
        let mut out = Answers::default();
        for row in rows {
            match row {
                Ok(i) => {
                    let (r, hit) = &answers[i];
                    out.push(&AnswerFields::new(r, hit.as_ref()));
                }
                Err(message) => out.push_error(message),
            }
        }
        out
    }

    fn push(&mut self, f: &AnswerFields) {
        self.answered.push(true);
        self.has_contact.push(f.depth.is_some());
        self.intersecting.push(f.intersecting);
        self.distance.push(f.distance);
        self.witness_a.extend(f.witness_a);
        self.witness_b.extend(f.witness_b);
        self.normal.extend(f.normal);
        self.iterations.push(f.iterations);
        self.status.push(Some(f.status));
        self.penetration_status.push(f.penetration_status);
        self.depth.push(f.depth.unwrap_or(0.0));
        self.contact_a.extend(f.contact_a.unwrap_or_default());
        self.contact_b.extend(f.contact_b.unwrap_or_default());
        self.error.push(None);
    }

    fn push_error(&mut self, message: String) {
        self.answered.push(false);
        self.has_contact.push(false);
        self.intersecting.push(false);
        self.distance.push(0.0);
        self.witness_a.extend([0.0; 3]);
        self.witness_b.extend([0.0; 3]);
        self.normal.extend([0.0; 3]);
        self.iterations.push(0);
        self.status.push(None);
        self.penetration_status.push(None);
        self.depth.push(0.0);
        self.contact_a.extend([0.0; 3]);
        self.contact_b.extend([0.0; 3]);
        self.error.push(Some(message));
    }

    /// A dict of the columns: NumPy arrays (vectors as `(n, 3)`), the text columns as lists with `None`,
    /// and the masks `answered` (the row has GJK's fields) and `has_contact` (it has depth and contacts).
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        let vectors = |v: Vec<f64>| -> PyResult<_> {
            let rows = v.len() / 3;
            let array = Array2::from_shape_vec((rows, 3), v)
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
            Ok(array.into_pyarray(py))
        };
        dict.set_item("answered", PyArray1::from_vec(py, self.answered))?;
        dict.set_item("has_contact", PyArray1::from_vec(py, self.has_contact))?;
        dict.set_item("intersecting", PyArray1::from_vec(py, self.intersecting))?;
        dict.set_item("distance", PyArray1::from_vec(py, self.distance))?;
        dict.set_item("witness_a", vectors(self.witness_a)?)?;
        dict.set_item("witness_b", vectors(self.witness_b)?)?;
        dict.set_item("normal", vectors(self.normal)?)?;
        dict.set_item("iterations", PyArray1::from_vec(py, self.iterations))?;
        dict.set_item("status", self.status)?;
        dict.set_item("penetration_status", self.penetration_status)?;
        dict.set_item("depth", PyArray1::from_vec(py, self.depth))?;
        dict.set_item("contact_a", vectors(self.contact_a)?)?;
        dict.set_item("contact_b", vectors(self.contact_b)?)?;
        dict.set_item("error", self.error)?;
        Ok(dict)
    }
}
