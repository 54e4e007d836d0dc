//! The size of one entry of the GPU's failure list ([`super::failure_list`]), apart from the list so that the
//! shader constants can name it without depending on the pipeline code.

/// Words of one entry: the pair's two instances, two zero words, and its 12-word record.
pub const FAILURE_ENTRY_WORDS: u32 = 16;
