//! The columnar batch schema: a shapes table, a pairs table that names shapes by id, and the answers table
//! (the JSON answer's fields as columns, plus `error`). README.md's "Columnar batches" section shows it.

use arrow_schema::{DataType, Field, Fields, Schema};
use std::sync::Arc;

/// A point, a position, a witness: `fixed_size_list<float64, 3>`.
pub fn vec3_type() -> DataType {
    fixed_f64_type(3)
}

/// A quaternion `[x, y, z, w]`: `fixed_size_list<float64, 4>`.
pub fn quat_type() -> DataType {
    fixed_f64_type(4)
}

/// `fixed_size_list<float64, N>`, with pyarrow's default child field (`item`, nullable), so tables written
/// here and by `pa.list_(pa.float64(), 3)` have the same schema.
pub fn fixed_f64_type(width: i32) -> DataType {
    DataType::FixedSizeList(
        Arc::new(Field::new_list_field(DataType::Float64, true)),
        width,
    )
}

/// A shape's points: `list<fixed_size_list<float64, 3>>`.
pub fn points_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(vec3_type(), true)))
}

pub fn shapes_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::UInt32, false),
        Field::new("points", points_type(), false),
        Field::new("radius", DataType::Float64, false),
    ]))
}

pub fn pairs_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("a", DataType::UInt32, false),
        Field::new("b", DataType::UInt32, false),
        Field::new("a_position", vec3_type(), false),
        Field::new("a_rotation", quat_type(), false),
        Field::new("b_position", vec3_type(), false),
        Field::new("b_rotation", quat_type(), false),
    ]))
}

/// One row per pair row; a field the JSON answer omits is null, and so is every field but `error` on a row
/// that has one.
pub fn answers_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("intersecting", DataType::Boolean, true),
        Field::new("distance", DataType::Float64, true),
        Field::new("witness_a", vec3_type(), true),
        Field::new("witness_b", vec3_type(), true),
        Field::new("normal", vec3_type(), true),
        Field::new("iterations", DataType::UInt32, true),
        Field::new("status", DataType::Utf8, true),
        Field::new("penetration_status", DataType::Utf8, true),
        Field::new("depth", DataType::Float64, true),
        Field::new("depth_upper", DataType::Float64, true),
        Field::new("contact_a", vec3_type(), true),
        Field::new("contact_b", vec3_type(), true),
        Field::new("error", DataType::Utf8, true),
    ]))
}

/// `query --kind manifold`'s answers table: one row per pair row, the manifold's `status`, its `normal`
/// (null where not finite) and its `points` (an empty list on a pair apart); every field but
/// `error` is null on a row that has one.
pub fn manifolds_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("status", DataType::Utf8, true),
        Field::new("normal", vec3_type(), true),
        Field::new(
            "points",
            DataType::List(Arc::new(Field::new_list_field(
                DataType::Struct(manifold_point_fields()),
                true,
            ))),
            true,
        ),
        Field::new("error", DataType::Utf8, true),
    ]))
}

/// A manifold point: `struct<point_a, point_b, depth, feature_id>` (`feature_id` is
/// [`crate::manifold::FeatureId::packed`]).
pub fn manifold_point_fields() -> Fields {
    Fields::from(vec![
        Field::new("point_a", vec3_type(), false),
        Field::new("point_b", vec3_type(), false),
        Field::new("depth", DataType::Float64, false),
        Field::new("feature_id", DataType::UInt64, false),
    ])
}

/// How a message names a column type: `fixed_size_list<float64, 3>`, as the README's schema writes it
/// (child field names and nullability do not matter to the reader).
pub fn type_name(data_type: &DataType) -> String {
    match data_type {
        DataType::FixedSizeList(child, width) => {
            format!("fixed_size_list<{}, {width}>", type_name(child.data_type()))
        }
        DataType::List(child) => format!("list<{}>", type_name(child.data_type())),
        DataType::LargeList(child) => format!("large_list<{}>", type_name(child.data_type())),
        DataType::ListView(child) => format!("list_view<{}>", type_name(child.data_type())),
        DataType::LargeListView(child) => {
            format!("large_list_view<{}>", type_name(child.data_type()))
        }
        DataType::Float64 => "float64".into(),
        DataType::Float32 => "float32".into(),
        DataType::UInt32 => "uint32".into(),
        DataType::Utf8 => "utf8".into(),
        DataType::LargeUtf8 => "large_utf8".into(),
        DataType::Utf8View => "utf8_view".into(),
        other => other.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_say_the_real_list_layout() {
        let large = DataType::LargeList(Arc::new(Field::new_list_field(vec3_type(), true)));
        assert_eq!(type_name(&large), "large_list<fixed_size_list<float64, 3>>");
        assert_eq!(
            type_name(&points_type()),
            "list<fixed_size_list<float64, 3>>"
        );
        let view = DataType::ListView(Arc::new(Field::new_list_field(DataType::LargeUtf8, true)));
        assert_eq!(type_name(&view), "list_view<large_utf8>");
        assert_eq!(type_name(&DataType::Int64), "int64");
    }
}
