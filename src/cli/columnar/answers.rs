//! The answers table: one row per pairs-table row, with the fields and values `query` writes on a JSON
//! answer line (the same `-0.0` cleaning, EPA's normal on an intersecting pair, the penetration fields only
//! where the JSON line has them), and `error` on a row that could not be answered.

use super::schema::answers_schema;
use crate::cli::answer::PairAnswer;
use crate::gjk::GjkStatus;
use arrow_array::builder::StringBuilder;
use arrow_array::{
    ArrayRef, BooleanArray, FixedSizeListArray, Float64Array, RecordBatch, UInt32Array,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field};
use glam::DVec3;
use std::sync::Arc;

/// `-0.0 + 0.0 == +0.0`, as on the JSON answer lines.
fn clean(x: f64) -> f64 {
    x + 0.0
}

/// A nullable column of N float64 values per row, built as one flat buffer.
#[derive(Default)]
struct FixedBuilder {
    values: Vec<f64>,
    valid: Vec<bool>,
}

impl FixedBuilder {
    fn push(&mut self, v: Option<DVec3>) {
        match v {
            Some(v) => self.values.extend([clean(v.x), clean(v.y), clean(v.z)]),
            None => self.values.extend([0.0; 3]),
        }
        self.valid.push(v.is_some());
    }

    fn finish(self) -> ArrayRef {
        Arc::new(FixedSizeListArray::new(
            Arc::new(Field::new_list_field(DataType::Float64, true)),
            3,
            Arc::new(Float64Array::from(self.values)),
            Some(NullBuffer::from(self.valid)),
        ))
    }
}

/// The answers table's columns, row by row.
#[derive(Default)]
pub struct AnswersBuilder {
    intersecting: Vec<Option<bool>>,
    distance: Vec<Option<f64>>,
    witness_a: FixedBuilder,
    witness_b: FixedBuilder,
    normal: FixedBuilder,
    iterations: Vec<Option<u32>>,
    status: StringBuilder,
    penetration_status: StringBuilder,
    depth: Vec<Option<f64>>,
    contact_a: FixedBuilder,
    contact_b: FixedBuilder,
    error: StringBuilder,
}

impl FixedBuilder {
    fn with_capacity(rows: usize) -> Self {
        Self {
            values: Vec::with_capacity(3 * rows),
            valid: Vec::with_capacity(rows),
        }
    }
}

impl AnswersBuilder {
    /// Room for `rows` rows without growing (the string columns hold their status names' bytes).
    pub fn with_capacity(rows: usize) -> Self {
        Self {
            intersecting: Vec::with_capacity(rows),
            distance: Vec::with_capacity(rows),
            witness_a: FixedBuilder::with_capacity(rows),
            witness_b: FixedBuilder::with_capacity(rows),
            normal: FixedBuilder::with_capacity(rows),
            iterations: Vec::with_capacity(rows),
            status: StringBuilder::with_capacity(rows, 16 * rows),
            penetration_status: StringBuilder::with_capacity(rows, 16 * rows),
            depth: Vec::with_capacity(rows),
            contact_a: FixedBuilder::with_capacity(rows),
            contact_b: FixedBuilder::with_capacity(rows),
            error: StringBuilder::with_capacity(rows, 0),
        }
    }

    /// An answered row.
    pub fn push_answer(&mut self, (r, hit): &PairAnswer) {
        let contact = hit.as_ref().filter(|_| r.status == GjkStatus::Intersecting);
        self.intersecting.push(Some(r.intersecting));
        self.distance.push(Some(clean(r.distance)));
        self.witness_a.push(Some(r.witness_a));
        self.witness_b.push(Some(r.witness_b));
        self.normal
            .push(Some(contact.map_or(r.normal, |h| h.normal)));
        self.iterations.push(Some(r.iterations));
        self.status.append_value(r.status.name());
        self.penetration_status
            .append_option(hit.as_ref().map(|h| h.status.name()));
        self.depth.push(contact.map(|h| clean(h.depth)));
        self.contact_a.push(contact.map(|h| h.contact_a));
        self.contact_b.push(contact.map(|h| h.contact_b));
        self.error.append_null();
    }

    /// A row that could not be answered: its message, every other field null.
    pub fn push_error(&mut self, message: &str) {
        self.intersecting.push(None);
        self.distance.push(None);
        self.witness_a.push(None);
        self.witness_b.push(None);
        self.normal.push(None);
        self.iterations.push(None);
        self.status.append_null();
        self.penetration_status.append_null();
        self.depth.push(None);
        self.contact_a.push(None);
        self.contact_b.push(None);
        self.error.append_value(message);
    }

    /// The rows pushed so far as one record batch; the builder starts empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let b = std::mem::take(self);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(BooleanArray::from(b.intersecting)),
            Arc::new(Float64Array::from(b.distance)),
            b.witness_a.finish(),
            b.witness_b.finish(),
            b.normal.finish(),
            Arc::new(UInt32Array::from(b.iterations)),
            Arc::new({ b.status }.finish()),
            Arc::new({ b.penetration_status }.finish()),
            Arc::new(Float64Array::from(b.depth)),
            b.contact_a.finish(),
            b.contact_b.finish(),
            Arc::new({ b.error }.finish()),
        ];
        RecordBatch::try_new(answers_schema(), columns).expect("the columns follow answers_schema")
    }
}
