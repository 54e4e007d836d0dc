//! Answers written as JSON Lines: one answer's fields ([`AnswerFields`], shared with the answers table and
//! the Python module), one answer or error as a line (`output`), a buffered writer of many (`writer`),
//! the answer lines of a batch in input order (`lines`), the thread that writes them behind the CPU
//! (`write_behind`), and the manifold line of `query --kind manifold` (`manifold_line`).

mod fields;
pub(crate) mod lines;
mod manifold_line;
mod output;
pub(crate) mod write_behind;
pub(crate) mod writer;

pub use fields::AnswerFields;
pub use lines::write_answer_lines;
pub use manifold_line::push_manifold;
pub use output::{push_error_with_id, push_result, write_error, write_result};
