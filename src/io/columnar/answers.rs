//! The answers table: one row per pairs-table row, with the fields and values `query` writes on a JSON
//! answer line (the same `-0.0` cleaning, EPA's normal on an intersecting pair, the penetration fields only
//! where the JSON line has them), and `error` on a row that could not be answered.

use super::schema::answers_schema;
use crate::gjk::GjkStatus;
use crate::io::batch::PairAnswer;
use arrow_array::builder::{BooleanBuilder, Float64Builder, StringBuilder, UInt32Builder};
use arrow_array::{ArrayRef, FixedSizeListArray, Float64Array, RecordBatch};
use arrow_buffer::NullBufferBuilder;
use arrow_schema::{DataType, Field};
use glam::DVec3;
use std::sync::Arc;

/// `-0.0 + 0.0 == +0.0`, as on the JSON answer lines.
fn clean(x: f64) -> f64 {
    x + 0.0
}

/// A nullable column of 3 float64 values per row, built as one flat buffer whose validity bitmap is made
/// only once a row is null (a batch without error rows writes none for the always-present fields).
struct FixedBuilder {
    values: Vec<f64>,
    valid: NullBufferBuilder,
}

impl FixedBuilder {
    fn with_capacity(rows: usize) -> Self {
        Self {
            values: Vec::with_capacity(3 * rows),
            valid: NullBufferBuilder::new(rows),
        }
    }

    #[inline]
    fn push(&mut self, v: Option<DVec3>) {
        match v {
            Some(v) => {
                self.values.extend([clean(v.x), clean(v.y), clean(v.z)]);
                self.valid.append_non_null();
            }
            None => {
                self.values.extend([0.0; 3]);
                self.valid.append_null();
            }
        }
    }

    fn finish(mut self) -> ArrayRef {
        Arc::new(FixedSizeListArray::new(
            Arc::new(Field::new_list_field(DataType::Float64, true)),
            3,
            Arc::new(Float64Array::from(self.values)),
            self.valid.finish(),
        ))
    }
}

/// The answers table's columns, row by row, each in the buffers the record batch then takes as they are.
pub struct AnswersBuilder {
    intersecting: BooleanBuilder,
    distance: Float64Builder,
    witness_a: FixedBuilder,
    witness_b: FixedBuilder,
    normal: FixedBuilder,
    iterations: UInt32Builder,
    status: StringBuilder,
    penetration_status: StringBuilder,
    depth: Float64Builder,
    depth_upper: Float64Builder,
    contact_a: FixedBuilder,
    contact_b: FixedBuilder,
    error: StringBuilder,
}

impl Default for AnswersBuilder {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl AnswersBuilder {
    /// Room for `rows` rows without growing (the string columns hold their status names' bytes).
    pub fn with_capacity(rows: usize) -> Self {
        Self {
            intersecting: BooleanBuilder::with_capacity(rows),
            distance: Float64Builder::with_capacity(rows),
            witness_a: FixedBuilder::with_capacity(rows),
            witness_b: FixedBuilder::with_capacity(rows),
            normal: FixedBuilder::with_capacity(rows),
            iterations: UInt32Builder::with_capacity(rows),
            status: StringBuilder::with_capacity(rows, 16 * rows),
            penetration_status: StringBuilder::with_capacity(rows, 16 * rows),
            depth: Float64Builder::with_capacity(rows),
            depth_upper: Float64Builder::with_capacity(rows),
            contact_a: FixedBuilder::with_capacity(rows),
            contact_b: FixedBuilder::with_capacity(rows),
            error: StringBuilder::with_capacity(rows, 0),
        }
    }

    /// An answered row.
    pub fn push_answer(&mut self, (r, hit): &PairAnswer) {
        let contact = hit.as_ref().filter(|_| r.status == GjkStatus::Intersecting);
        self.intersecting.append_value(r.intersecting);
        self.distance.append_value(clean(r.distance));
        self.witness_a.push(Some(r.witness_a));
        self.witness_b.push(Some(r.witness_b));
        self.normal
            .push(Some(contact.map_or(r.normal, |h| h.normal)));
        self.iterations.append_value(r.iterations);
        self.status.append_value(r.status.name());
        self.penetration_status
            .append_option(hit.as_ref().map(|h| h.status.name()));
        self.depth.append_option(contact.map(|h| clean(h.depth)));
        self.depth_upper
            .append_option(contact.and_then(|h| h.depth_upper).map(clean));
        self.contact_a.push(contact.map(|h| h.contact_a));
        self.contact_b.push(contact.map(|h| h.contact_b));
        self.error.append_null();
    }

    /// A row that could not be answered: its message, every other field null.
    pub fn push_error(&mut self, message: &str) {
        self.intersecting.append_null();
        self.distance.append_null();
        self.witness_a.push(None);
        self.witness_b.push(None);
        self.normal.push(None);
        self.iterations.append_null();
        self.status.append_null();
        self.penetration_status.append_null();
        self.depth.append_null();
        self.depth_upper.append_null();
        self.contact_a.push(None);
        self.contact_b.push(None);
        self.error.append_value(message);
    }

    /// The rows pushed so far as one record batch; the builder starts empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let mut b = std::mem::take(self);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(b.intersecting.finish()),
            Arc::new(b.distance.finish()),
            b.witness_a.finish(),
            b.witness_b.finish(),
            b.normal.finish(),
            Arc::new(b.iterations.finish()),
            Arc::new(b.status.finish()),
            Arc::new(b.penetration_status.finish()),
            Arc::new(b.depth.finish()),
            Arc::new(b.depth_upper.finish()),
            b.contact_a.finish(),
            b.contact_b.finish(),
            Arc::new(b.error.finish()),
        ];
        RecordBatch::try_new(answers_schema(), columns).expect("the columns follow answers_schema")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epa::PenetrationStatus;
    use crate::query::{WorldPenetration, WorldResult};
    use arrow_array::cast::AsArray;
    use arrow_array::types::Float64Type;
    use arrow_array::Array;

    /// `depth_upper` is filled on an answer EPA did not converge on, null on a converged one (and on an
    /// error row), as the JSON line has it or not.
    #[test]
    fn the_depth_upper_column_is_null_where_the_answer_has_no_bound() {
        let r = WorldResult {
            status: GjkStatus::Intersecting,
            intersecting: true,
            distance: 0.0,
            witness_a: DVec3::ZERO,
            witness_b: DVec3::ZERO,
            normal: DVec3::ZERO,
            iterations: 4,
        };
        let hit = |status, depth_upper| WorldPenetration {
            status,
            depth: 0.5,
            normal: DVec3::X,
            contact_a: DVec3::X * 0.5,
            contact_b: DVec3::ZERO,
            depth_upper,
        };
        let mut builder = AnswersBuilder::default();
        builder.push_answer(&(r, Some(hit(PenetrationStatus::MaxIterations, Some(0.75)))));
        builder.push_answer(&(r, Some(hit(PenetrationStatus::Penetrating, None))));
        builder.push_error("bad row");
        let batch = builder.finish();
        let upper = batch.column_by_name("depth_upper").unwrap();
        let upper = upper.as_primitive::<Float64Type>();
        assert_eq!(upper.value(0), 0.75);
        assert!(upper.is_null(1) && upper.is_null(2));
    }
}
