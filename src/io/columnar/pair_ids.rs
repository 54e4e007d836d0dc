//! The pairs table's optional `id` column: each row's [`PairId`], echoed in the answers (an `id` column of
//! the answers table, first on a JSON answer line). An integer column of any width, `utf8` or `large_utf8`;
//! the answers table keeps an `int64`, `uint64`, `utf8` or `large_utf8` column's type and widens a narrower
//! integer column to `int64` (signed) or `uint64`. A null id is a row without one.

use crate::io::pair_id::PairId;
use arrow_array::builder::{Int64Builder, LargeStringBuilder, StringBuilder, UInt64Builder};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use std::sync::Arc;

/// The column's name in the pairs and the answers table.
pub const ID_COLUMN: &str = "id";

/// Every row's id, and the type of the answers table's `id` column.
#[derive(Clone, Debug, PartialEq)]
pub struct PairIds {
    pub data_type: DataType,
    pub values: Vec<Option<PairId>>,
}

/// The answers table's type for a pairs table's `id` column of type `input`, or the message for a column
/// that cannot hold ids.
pub fn answer_id_type(input: &DataType) -> Result<DataType, String> {
    use DataType::*;
    match input {
        Int8 | Int16 | Int32 | Int64 => Ok(Int64),
        UInt8 | UInt16 | UInt32 | UInt64 => Ok(UInt64),
        Utf8 => Ok(Utf8),
        LargeUtf8 => Ok(LargeUtf8),
        other => Err(format!(
            "column `{ID_COLUMN}`: expected integers or strings (int64, uint64, utf8, large_utf8 or a \
             narrower integer type), got {}",
            super::schema::type_name(other)
        )),
    }
}

/// Appends the ids of `column` (whose type [`answer_id_type`] accepted), one per row.
pub fn append_ids(column: &dyn Array, out: &mut Vec<Option<PairId>>) {
    macro_rules! ints {
        ($t:ty, $variant:ident, $wide:ty) => {
            out.extend(
                column
                    .as_primitive::<$t>()
                    .iter()
                    .map(|v| v.map(|v| PairId::$variant(<$wide>::from(v)))),
            )
        };
    }
    match column.data_type() {
        DataType::Int8 => ints!(Int8Type, Int, i64),
        DataType::Int16 => ints!(Int16Type, Int, i64),
        DataType::Int32 => ints!(Int32Type, Int, i64),
        DataType::Int64 => ints!(Int64Type, Int, i64),
        DataType::UInt8 => ints!(UInt8Type, UInt, u64),
        DataType::UInt16 => ints!(UInt16Type, UInt, u64),
        DataType::UInt32 => ints!(UInt32Type, UInt, u64),
        DataType::UInt64 => ints!(UInt64Type, UInt, u64),
        DataType::Utf8 => out.extend(
            column
                .as_string::<i32>()
                .iter()
                .map(|v| v.map(|s| PairId::Text(s.into()))),
        ),
        DataType::LargeUtf8 => out.extend(
            column
                .as_string::<i64>()
                .iter()
                .map(|v| v.map(|s| PairId::Text(s.into()))),
        ),
        other => unreachable!("answer_id_type refuses {other}"),
    }
}

/// The `id` column of type `data_type` holding `values` (each of a kind that type holds: see
/// [`ids_type`]).
pub fn id_column(data_type: &DataType, values: &[Option<PairId>]) -> ArrayRef {
    let text = |id: &Option<PairId>| match id {
        Some(PairId::Text(s)) => Some(s.to_string()),
        Some(PairId::Int(n)) => Some(n.to_string()),
        Some(PairId::UInt(n)) => Some(n.to_string()),
        None => None,
    };
    match data_type {
        DataType::Int64 => {
            let mut b = Int64Builder::with_capacity(values.len());
            for id in values {
                b.append_option(match id {
                    Some(PairId::Int(n)) => Some(*n),
                    Some(PairId::UInt(n)) => i64::try_from(*n).ok(),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::UInt64 => {
            let mut b = UInt64Builder::with_capacity(values.len());
            for id in values {
                b.append_option(match id {
                    Some(PairId::UInt(n)) => Some(*n),
                    Some(PairId::Int(n)) => u64::try_from(*n).ok(),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::LargeUtf8 => {
            let mut b = LargeStringBuilder::new();
            values.iter().for_each(|id| b.append_option(text(id)));
            Arc::new(b.finish())
        }
        _ => {
            let mut b = StringBuilder::new();
            values.iter().for_each(|id| b.append_option(text(id)));
            Arc::new(b.finish())
        }
    }
}

/// The column type that holds the ids of a JSON Lines batch (`convert`): `int64` when every id is an
/// integer that fits it, `uint64` when one does not and none is negative, `utf8` when every id is a string;
/// `None` when no line has one. Ids of two kinds cannot share a column: the error names the first line
/// (from 0) whose id does not fit the ones before it, and why.
pub fn ids_type(values: &[Option<PairId>]) -> Result<Option<DataType>, (usize, String)> {
    let mut found: Option<(usize, &PairId)> = None;
    let (mut negative, mut beyond_int64) = (None, None);
    for (k, id) in values.iter().enumerate() {
        let Some(id) = id else { continue };
        match (found, id) {
            (None, _) => found = Some((k, id)),
            (Some((_, PairId::Text(_))), PairId::Text(_)) => {}
            (Some((_, PairId::Int(_) | PairId::UInt(_))), PairId::Int(_) | PairId::UInt(_)) => {}
            (Some((first, _)), _) => {
                return Err((
                    k,
                    format!(
                        "id: {} here but {} on line {} (a pairs table's id column holds one kind: make \
                         every id a string, or every one an integer)",
                        kind(id),
                        kind(found.expect("set").1),
                        first + 1
                    ),
                ))
            }
        }
        match id {
            PairId::Int(n) if *n < 0 => negative = negative.or(Some(k)),
            PairId::UInt(_) => beyond_int64 = beyond_int64.or(Some(k)),
            _ => {}
        }
    }
    if let (Some(negative), Some(big)) = (negative, beyond_int64) {
        return Err((
            negative.max(big),
            format!(
                "id: the ids hold a negative integer (line {}) and one above 2^63 - 1 (line {}), which no \
                 integer column holds both of",
                negative + 1,
                big + 1
            ),
        ));
    }
    Ok(found.map(|(_, id)| match id {
        PairId::Text(_) => DataType::Utf8,
        _ if beyond_int64.is_some() => DataType::UInt64,
        _ => DataType::Int64,
    }))
}

fn kind(id: &PairId) -> &'static str {
    match id {
        PairId::Text(_) => "a string",
        _ => "an integer",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_keeps_its_ids_and_its_type() {
        let ints: ArrayRef = Arc::new(arrow_array::Int32Array::from(vec![Some(-3), None, Some(7)]));
        let mut ids = Vec::new();
        append_ids(&ints, &mut ids);
        assert_eq!(ids, [Some(PairId::Int(-3)), None, Some(PairId::Int(7))]);
        let out = id_column(&answer_id_type(ints.data_type()).unwrap(), &ids);
        assert_eq!(out.data_type(), &DataType::Int64);
        assert_eq!(out.null_count(), 1);
        let text: ArrayRef = Arc::new(arrow_array::LargeStringArray::from(vec!["a", "b"]));
        let mut ids = Vec::new();
        append_ids(&text, &mut ids);
        assert_eq!(
            id_column(&DataType::LargeUtf8, &ids).as_ref(),
            text.as_ref()
        );
        assert!(answer_id_type(&DataType::Float64)
            .unwrap_err()
            .contains("got float64"));
        assert!(answer_id_type(&DataType::Boolean).is_err());
    }

    #[test]
    fn a_batch_of_json_ids_gets_the_column_type_that_holds_them() {
        let int = |n| Some(PairId::Int(n));
        assert_eq!(ids_type(&[None, None]), Ok(None));
        assert_eq!(
            ids_type(&[int(1), None, int(-2)]),
            Ok(Some(DataType::Int64))
        );
        assert_eq!(
            ids_type(&[int(1), Some(PairId::UInt(u64::MAX))]),
            Ok(Some(DataType::UInt64))
        );
        let text = Some(PairId::Text("a".into()));
        assert_eq!(ids_type(&[text.clone(), None]), Ok(Some(DataType::Utf8)));
        let (line, why) = ids_type(&[None, text, int(3)]).unwrap_err();
        assert_eq!(line, 2);
        assert!(
            why.starts_with("id: an integer here but a string on line 2"),
            "{why}"
        );
        let (line, _) = ids_type(&[int(-1), Some(PairId::UInt(u64::MAX))]).unwrap_err();
        assert_eq!(line, 1);
    }
}
