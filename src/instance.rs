//! The data every batch layer shares, CPU or GPU: instances (a shape index and a pose) and candidate pairs of
//! instance indices, with the check that every index refers to something.

use crate::pose::Pose;

/// One placed body: which shape, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    pub shape: u32,
    pub pose: Pose,
}

/// A candidate pair: the indices of two instances.
pub type Pair = [u32; 2];

/// A batch's index data that refers to nothing, naming the offending entry.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum IndexError {
    #[error("instance {instance} refers to shape {shape}, but there are only {shapes} shapes")]
    BadShapeIndex {
        instance: usize,
        shape: u32,
        shapes: usize,
    },
    #[error("pair {pair} refers to instance {index}, but there are only {instances} instances")]
    BadInstanceIndex {
        pair: usize,
        index: u32,
        instances: usize,
    },
}

/// Checks every index of a batch over `shapes` shapes, so the query loops themselves cannot fail.
pub(crate) fn check_indices(
    shapes: usize,
    instances: &[Instance],
    pairs: &[Pair],
) -> Result<(), IndexError> {
    if let Some((instance, inst)) = instances
        .iter()
        .enumerate()
        .find(|(_, inst)| inst.shape as usize >= shapes)
    {
        return Err(IndexError::BadShapeIndex {
            instance,
            shape: inst.shape,
            shapes,
        });
    }
    for (pair, indices) in pairs.iter().enumerate() {
        if let Some(&index) = indices.iter().find(|&&i| i as usize >= instances.len()) {
            return Err(IndexError::BadInstanceIndex {
                pair,
                index,
                instances: instances.len(),
            });
        }
    }
    Ok(())
}
