//! The answers table as NumPy arrays: one row per pair row, the command line's answer fields
//! ([`AnswerFields`]) as columns, with masks for the cells the JSON answer omits, and `error`. The two
//! status columns go out as codes into a list of names (a Python string per row cost more than the rest of
//! a row's answer), which the Python half turns into text columns with one vectorised step; the rare
//! errors go out as (row, message) pairs.

use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::io::answers::AnswerFields;
use gpu_gjk::io::batch::{Executor, IndexedAnswers, PairAnswer};
use gpu_gjk::GjkStatus;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The columns, one row per pair row; a row that failed keeps zeros under a false mask.
pub struct Answers {
    answered: Vec<bool>,
    has_contact: Vec<bool>,
    has_depth_upper: Vec<bool>,
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
    depth_upper: Vec<f64>,
    contact_a: Vec<f64>,
    contact_b: Vec<f64>,
    error_rows: Vec<u64>,
    error_messages: Vec<String>,
}

/// The status code of a cell with no status (a failed row; no penetration answer).
const NO_STATUS: u8 = u8::MAX;

/// Rows per block filled by one thread: big enough to amortise handing it out, small enough to spread a
/// batch of 100,000 rows over 16 threads.
const BLOCK_ROWS: usize = 4096;

fn code<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter()
        .position(|s| s == value)
        .expect("every status is in its ALL list") as u8
}

/// One block's rows of every column, written by one thread.
struct Block<'a> {
    first_row: usize,
    answered: &'a mut [bool],
    has_contact: &'a mut [bool],
    has_depth_upper: &'a mut [bool],
    intersecting: &'a mut [bool],
    distance: &'a mut [f64],
    witness_a: &'a mut [f64],
    witness_b: &'a mut [f64],
    normal: &'a mut [f64],
    iterations: &'a mut [u32],
    status: &'a mut [u8],
    penetration_status: &'a mut [u8],
    depth: &'a mut [f64],
    depth_upper: &'a mut [f64],
    contact_a: &'a mut [f64],
    contact_b: &'a mut [f64],
}

impl Block<'_> {
    /// Fills the block's rows: `failed` holds the batch's failed rows from this block's first on
    /// (ascending), `answers` the answers from this block's first answered row on.
    fn fill(self, mut failed: &[u64], answers: &[PairAnswer]) {
        let mut answers = answers.iter();
        for i in 0..self.answered.len() {
            if failed.first() == Some(&((self.first_row + i) as u64)) {
                failed = &failed[1..];
                continue;
            }
            let answer = answers.next().expect("one answer per answered row");
            let f = AnswerFields::new(&answer.0, answer.1.as_ref());
            self.answered[i] = true;
            self.has_contact[i] = f.depth.is_some();
            self.has_depth_upper[i] = f.depth_upper.is_some();
            self.intersecting[i] = f.intersecting;
            self.distance[i] = f.distance;
            self.witness_a[3 * i..3 * i + 3].copy_from_slice(&f.witness_a);
            self.witness_b[3 * i..3 * i + 3].copy_from_slice(&f.witness_b);
            self.normal[3 * i..3 * i + 3].copy_from_slice(&f.normal);
            self.iterations[i] = f.iterations;
            self.status[i] = code(&GjkStatus::ALL, &answer.0.status);
            if let Some(hit) = &answer.1 {
                self.penetration_status[i] = code(&PenetrationStatus::ALL, &hit.status);
            }
            self.depth[i] = f.depth.unwrap_or(0.0);
            self.depth_upper[i] = f.depth_upper.unwrap_or(0.0);
            self.contact_a[3 * i..3 * i + 3].copy_from_slice(&f.contact_a.unwrap_or_default());
            self.contact_b[3 * i..3 * i + 3].copy_from_slice(&f.contact_b.unwrap_or_default());
        }
    }
}

impl Answers {
    /// `rows` rows in order: the failed ones (`errors`, by row, ascending) carry their message, the others
    /// take the answers in order. The columns are filled a block of rows per thread of `exec`, each block
    /// asking `answers` for its answers just before writing them (on the CPU, the answering itself).
    pub fn new(
        rows: usize,
        errors: Vec<(usize, String)>,
        answers: &IndexedAnswers,
        exec: &Executor,
    ) -> Self {
        let (error_rows, error_messages): (Vec<u64>, Vec<String>) =
            errors.into_iter().map(|(r, m)| (r as u64, m)).unzip();
        debug_assert_eq!(rows, answers.len() + error_rows.len());
        // Zeroed (calloc'd) columns: their pages are touched first by the threads that fill them.
        let mut out = Answers {
            answered: vec![false; rows],
            has_contact: vec![false; rows],
            has_depth_upper: vec![false; rows],
            intersecting: vec![false; rows],
            distance: vec![0.0; rows],
            witness_a: vec![0.0; 3 * rows],
            witness_b: vec![0.0; 3 * rows],
            normal: vec![0.0; 3 * rows],
            iterations: vec![0; rows],
            status: vec![NO_STATUS; rows],
            penetration_status: vec![NO_STATUS; rows],
            depth: vec![0.0; rows],
            depth_upper: vec![0.0; rows],
            contact_a: vec![0.0; 3 * rows],
            contact_b: vec![0.0; 3 * rows],
            error_rows,
            error_messages,
        };
        let (b, b3) = (BLOCK_ROWS, 3 * BLOCK_ROWS);
        let mut answered = out.answered.chunks_mut(b);
        let mut has_contact = out.has_contact.chunks_mut(b);
        let mut has_depth_upper = out.has_depth_upper.chunks_mut(b);
        let mut intersecting = out.intersecting.chunks_mut(b);
        let mut distance = out.distance.chunks_mut(b);
        let mut witness_a = out.witness_a.chunks_mut(b3);
        let mut witness_b = out.witness_b.chunks_mut(b3);
        let mut normal = out.normal.chunks_mut(b3);
        let mut iterations = out.iterations.chunks_mut(b);
        let mut status = out.status.chunks_mut(b);
        let mut penetration_status = out.penetration_status.chunks_mut(b);
        let mut depth = out.depth.chunks_mut(b);
        let mut depth_upper = out.depth_upper.chunks_mut(b);
        let mut contact_a = out.contact_a.chunks_mut(b3);
        let mut contact_b = out.contact_b.chunks_mut(b3);
        let failed = &out.error_rows;
        let blocks: Vec<(Block, &[u64], usize)> = (0..rows.div_ceil(b))
            .map(|k| {
                let first_row = k * b;
                let failed_before = failed.partition_point(|&r| r < first_row as u64);
                let block = Block {
                    first_row,
                    answered: answered.next().expect("a block per column"),
                    has_contact: has_contact.next().expect("a block per column"),
                    has_depth_upper: has_depth_upper.next().expect("a block per column"),
                    intersecting: intersecting.next().expect("a block per column"),
                    distance: distance.next().expect("a block per column"),
                    witness_a: witness_a.next().expect("a block per column"),
                    witness_b: witness_b.next().expect("a block per column"),
                    normal: normal.next().expect("a block per column"),
                    iterations: iterations.next().expect("a block per column"),
                    status: status.next().expect("a block per column"),
                    penetration_status: penetration_status.next().expect("a block per column"),
                    depth: depth.next().expect("a block per column"),
                    depth_upper: depth_upper.next().expect("a block per column"),
                    contact_a: contact_a.next().expect("a block per column"),
                    contact_b: contact_b.next().expect("a block per column"),
                };
                (block, &failed[failed_before..], first_row - failed_before)
            })
            .collect();
        exec.for_each(blocks, |(block, failed, first_answer)| {
            let end = block.first_row + block.answered.len();
            let answered = block.answered.len() - failed.partition_point(|&r| r < end as u64);
            let mut block_answers = Vec::with_capacity(answered);
            answers.answer_range(first_answer..first_answer + answered, &mut block_answers);
            block.fill(failed, &block_answers);
        });
        out
    }

    /// A dict of the columns: NumPy arrays (vectors as `(n, 3)`); the status columns as `uint8` codes into
    /// `status_names` and `penetration_status_names` (255: null); `error_rows` and `error_messages`; and
    /// the masks `answered` (the row has GJK's fields), `has_contact` (it has depth and contacts) and
    /// `has_depth_upper` (EPA did not converge, and the row has the depth's upper bound).
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
        dict.set_item(
            "has_depth_upper",
            PyArray1::from_vec(py, self.has_depth_upper),
        )?;
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
        dict.set_item("depth_upper", PyArray1::from_vec(py, self.depth_upper))?;
        dict.set_item("contact_a", vectors(self.contact_a)?)?;
        dict.set_item("contact_b", vectors(self.contact_b)?)?;
        dict.set_item("error_rows", PyArray1::from_vec(py, self.error_rows))?;
        dict.set_item("error_messages", self.error_messages)?;
        Ok(dict)
    }
}
