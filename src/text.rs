//! Counts in messages: `1 pair`, `2 pairs`, `0 pairs`, so no message says "1 iterations".

/// `n` and the noun, plural unless `n` is 1: the plural adds `s` (`pair`, `pairs`); a noun that forms it
/// otherwise has [`count_as`].
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

/// [`count`] with the plural given (`query`, `queries`).
pub fn count_as(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// [`count`] of a `usize` (a length).
pub fn count_len(n: usize, noun: &str) -> String {
    count(n as u64, noun)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u32, "iteration"), "1 iteration");
        assert_eq!(count(0u32, "iteration"), "0 iterations");
        assert_eq!(count(2u64, "pair"), "2 pairs");
        assert_eq!(count_len(1, "pair"), "1 pair");
        assert_eq!(count_as(1u8, "query", "queries"), "1 query");
        assert_eq!(count_as(3u8, "query", "queries"), "3 queries");
    }
}
