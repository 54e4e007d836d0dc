//! JSON Lines batches: the input read in blocks of whole lines (`reader`), each line parsed by the typed
//! fast path (`typed`, which shares the shapes that repeat) or, for anything it does not take, field by
//! field (`parse`, the one source of the error texts, with `lexical`, `overflow` and `repeated_keys`
//! for the numbers and keys serde_json alone would misreport). [`pair_line`] writes a pair back as a line.

pub(crate) mod lexical;
#[cfg(feature = "scenario")]
mod mix_file;
mod overflow;
mod pair_line;
pub(crate) mod parse;
mod read_ahead;
pub(crate) mod reader;
pub(crate) mod repeated_keys;
mod typed;

#[cfg(feature = "scenario")]
pub use mix_file::write_mix_file;
pub use pair_line::pair_line;
pub use parse::{
    centred_shape, check_coordinate, check_radius, check_rotation, parse_line, refused_line_id,
    PairInput, PlacedShape,
};
pub use reader::{
    indexed_batch, parse_input, read_and_parse, read_input, split_lines, LineError, LineTooLong,
    ParsedLine, DEFAULT_MAX_LINE_BYTES,
};
pub use typed::ShapeCache;
