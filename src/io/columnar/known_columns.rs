//! A shapes or pairs table holds only the columns its schema names: a misspelt pose column (`b_positon`)
//! would otherwise be passed over and its side left at the origin, a wrong answer with no word said. The
//! JSON reader refuses an unknown field, and the Python module an unknown column, for the same reason.

use arrow_schema::Schema;

/// pandas' `to_parquet` stores a frame's index (all but a plain 0..n range) as a column
/// `__index_level_0__`, `__index_level_1__`, ...; it holds row labels, never a pose, so it is passed over.
fn is_pandas_index(name: &str) -> bool {
    name.strip_prefix("__index_level_")
        .and_then(|rest| rest.strip_suffix("__"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Checks that every column of `table` is one of `schema`'s (a column given twice is refused too, since
/// only one of the two would be read): `the pairs table has an unknown column `b_positon` (did you mean
/// `b_position`? its columns are a, b, a_position, a_rotation, b_position, b_rotation)`.
pub fn check_columns(table: &Schema, name: &str, schema: &Schema) -> Result<(), String> {
    let known: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    for (k, field) in table.fields().iter().enumerate() {
        let column = field.name().as_str();
        if known.contains(&column) {
            if table.fields()[..k].iter().any(|f| f.name() == column) {
                return Err(format!("the {name} table has two columns named `{column}`"));
            }
            continue;
        }
        if is_pandas_index(column) {
            continue;
        }
        let hint = nearest(column, &known)
            .map(|near| format!("did you mean `{near}`? "))
            .unwrap_or_default();
        return Err(format!(
            "the {name} table has an unknown column `{column}` ({hint}its columns are {})",
            known.join(", ")
        ));
    }
    Ok(())
}

/// The known name closest to `name` by edit distance, when one is at most 2 edits away (the first of a tie).
fn nearest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over characters (insertions, deletions and substitutions).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::columnar::{pairs_schema, shapes_schema};
    use arrow_schema::{DataType, Field};

    fn table(names: &[&str]) -> Schema {
        Schema::new(
            names
                .iter()
                .map(|n| Field::new(*n, DataType::UInt32, true))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("b_positon", "b_position"), 1);
        assert_eq!(edit_distance("radius", "radius"), 0);
        assert_eq!(edit_distance("", "id"), 2);
        assert_eq!(edit_distance("pts", "points"), 3);
        assert_eq!(edit_distance("a_rotaiton", "a_rotation"), 2);
    }

    #[test]
    fn an_unknown_column_is_named_with_the_nearest_known_one() {
        let pairs = pairs_schema();
        assert_eq!(
            check_columns(&table(&["a", "b", "b_positon"]), "pairs", &pairs).unwrap_err(),
            "the pairs table has an unknown column `b_positon` (did you mean `b_position`? its columns are \
             a, b, a_position, a_rotation, b_position, b_rotation)"
        );
        assert_eq!(
            check_columns(
                &table(&["id", "points", "colour"]),
                "shapes",
                &shapes_schema()
            )
            .unwrap_err(),
            "the shapes table has an unknown column `colour` (its columns are id, points, radius)"
        );
        assert_eq!(
            check_columns(&table(&["a", "b", "a"]), "pairs", &pairs).unwrap_err(),
            "the pairs table has two columns named `a`"
        );
        assert!(check_columns(&table(&["b", "a", "__index_level_0__"]), "pairs", &pairs).is_ok());
        assert!(check_columns(&table(&["a", "b", "__index_level__"]), "pairs", &pairs).is_err());
    }
}
