//! The answers table as NumPy arrays: one row per pair row, the command line's answer fields
//! ([`AnswerFields`]) as columns, with masks for the cells the JSON answer omits, and `error`. The two
//! status columns go out as codes into a list of names (a Python string per row cost more than the rest of
//! a row's answer), which the Python half turns into text columns with one vectorised step; the rare
//! errors go out as (row, message) pairs.

use gpu_gjk::cli::{AnswerFields, PairAnswer};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::GjkStatus;
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
    /// Index into [`GjkStatus::ALL`], or [`NO_STATUS`].
    status: Vec<u8>,
    /// Index into [`PenetrationStatus::ALL`], or [`NO_STATUS`].
    penetration_status: Vec<u8>,
    depth: Vec<f64>,
    contact_a: Vec<f64>,
    contact_b: Vec<f64>,
    error_rows: Vec<u64>,
    error_messages: Vec<String>,
}

/// The status code of a cell with no status (a failed row; no penetration answer).
const NO_STATUS: u8 = u8::MAX;

fn code<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter()
        .position(|s| s == value)
        .expect("every status is in its ALL list") as u8
}

impl Answers {
    /// The rows in order: `rows[k]` is `Ok(i)` for the `i`-th answer in `answers`, or the row's error.
    pub fn new(rows: Vec<Result<usize, String>>, answers: &[PairAnswer]) -> Self {
        let mut out = Answers::with_capacity(rows.len());
        for row in rows {
            match row {
                Ok(i) => {
                    let answer = &answers[i];
                    out.push(&AnswerFields::new(&answer.0, answer.1.as_ref()), answer);
                }
                Err(message) => out.push_error(message),
            }
        }
        out
    }

    fn with_capacity(n: usize) -> Self {
        Self {
            answered: Vec::with_capacity(n),
            has_contact: Vec::with_capacity(n),
            intersecting: Vec::with_capacity(n),
            distance: Vec::with_capacity(n),
            witness_a: Vec::with_capacity(3 * n),
            witness_b: Vec::with_capacity(3 * n),
            normal: Vec::with_capacity(3 * n),
            iterations: Vec::with_capacity(n),
            status: Vec::with_capacity(n),
            penetration_status: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            contact_a: Vec::with_capacity(3 * n),
            contact_b: Vec::with_capacity(3 * n),
            error_rows: Vec::new(),
            error_messages: Vec::new(),
        }
    }

    fn push(&mut self, f: &AnswerFields, r: &PairAnswer) {
        self.answered.push(true);
        self.has_contact.push(f.depth.is_some());
        self.intersecting.push(f.intersecting);
        self.distance.push(f.distance);
        self.witness_a.extend(f.witness_a);
        self.witness_b.extend(f.witness_b);
        self.normal.extend(f.normal);
        self.iterations.push(f.iterations);
        self.status.push(code(&GjkStatus::ALL, &r.0.status));
        self.penetration_status.push(
            r.1.as_ref()
                .map_or(NO_STATUS, |h| code(&PenetrationStatus::ALL, &h.status)),
        );
        self.depth.push(f.depth.unwrap_or(0.0));
        self.contact_a.extend(f.contact_a.unwrap_or_default());
        self.contact_b.extend(f.contact_b.unwrap_or_default());
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
        self.status.push(NO_STATUS);
        self.penetration_status.push(NO_STATUS);
        self.depth.push(0.0);
        self.contact_a.extend([0.0; 3]);
        self.contact_b.extend([0.0; 3]);
        self.error_rows.push(self.answered.len() as u64 - 1);
        self.error_messages.push(message);
    }

    /// A dict of the columns: NumPy arrays (vectors as `(n, 3)`); the status columns as `uint8` codes into
    /// `status_names` and `penetration_status_names` (255: null); `error_rows` and `error_messages`; and
    /// the masks `answered` (the row has GJK's fields) and `has_contact` (it has depth and contacts).
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
        dict.set_item("status", PyArray1::from_vec(py, self.status))?;
        dict.set_item("status_names", GjkStatus::ALL.map(GjkStatus::name).to_vec())?;
        dict.set_item(
            "penetration_status",
            PyArray1::from_vec(py, self.penetration_status),
        )?;
        dict.set_item(
            "penetration_status_names",
            PenetrationStatus::ALL.map(PenetrationStatus::name).to_vec(),
        )?;
        dict.set_item("depth", PyArray1::from_vec(py, self.depth))?;
        dict.set_item("contact_a", vectors(self.contact_a)?)?;
        dict.set_item("contact_b", vectors(self.contact_b)?)?;
        dict.set_item("error_rows", PyArray1::from_vec(py, self.error_rows))?;
        dict.set_item("error_messages", self.error_messages)?;
        Ok(dict)
    }
}
