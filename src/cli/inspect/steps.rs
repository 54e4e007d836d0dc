//! How `inspect` counts and names what it shows, shared by the terminal table, `--trace` and the inspector's
//! picture so that all three say the same numbers in the same frame.
//!
//! Steps: the inspector's timeline is every GJK iteration of the answering run (iteration 0 is the start, before
//! the first search direction), then every EPA record of that run. An EPA record is taken each time the loop
//! picks the closest face: record 0 holds the starting polytope, record k the polytope after k expansions, so a
//! try that answers after n expansions has n + 1 records (and `Penetration::iterations` is n).

use crate::query::trace::RunTrace;

/// The frame every point and vector is given in, as the picture and the table name it.
pub const FRAME: &str = "world coordinates";

/// The frame in a sentence, for the table's first line and `--trace`.
pub const FRAME_NOTE: &str =
    "world coordinates: a and b are points of A and B where they stand, w = a - b (A - B as the picture draws it)";

/// The expansions try `attempt` (from 0) made: its last record's count.
pub fn epa_expansions(run: &RunTrace, attempt: u32) -> u32 {
    run.epa
        .iter()
        .filter(|it| it.attempt == attempt)
        .map(|it| it.iteration)
        .max()
        .unwrap_or(0)
}

/// "1 expansion", "2 expansions".
pub fn expansions_text(n: u32) -> String {
    format!("{n} expansion{}", if n == 1 { "" } else { "s" })
}
