//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong when building shapes or poses from user data.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum GjkError {
    /// A shape was given no points at all.
    #[error("shape has an empty point list")]
    EmptyPoints,
    /// A point coordinate is NaN or infinite.
    #[error("point {index} has a non-finite coordinate")]
    NonFinitePoint { index: usize },
    /// A coordinate is so large that the GJK determinants could overflow float32.
    #[error("point {index} has a coordinate beyond +-{limit:e}")]
    PointOutOfRange { index: usize, limit: f64 },
    /// The radius is negative, NaN, infinite or beyond the coordinate limit.
    #[error("radius {radius:e} is not a number from 0 to {limit:e}")]
    InvalidRadius { radius: f64, limit: f64 },
    /// A pose position is NaN, infinite or out of range.
    #[error("position has a non-finite or out-of-range coordinate (limit +-{limit:e})")]
    InvalidPosition { limit: f64 },
    /// A rotation quaternion is zero, NaN or infinite and cannot be normalised.
    #[error("rotation quaternion is zero or not finite and cannot be normalised")]
    InvalidRotation,
    /// A primitive's size parameter is invalid (negative, NaN, or a segment count below 3).
    #[error("invalid {what}: {value}")]
    InvalidParameter { what: &'static str, value: f64 },
    /// An OBJ file could not be read or parsed.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Obj {
        path: PathBuf,
        line: Option<usize>,
        message: String,
    },
}
