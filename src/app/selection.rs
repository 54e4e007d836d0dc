//! The picked body and its pairs: for each broad-phase pair of the body, the GPU's answer from the frame
//! and the CPU reference's answer for the same pair (computed when asked, on the frame's poses), with EPA's
//! depth on colliding pairs, for the HUD's panel, "copy pair" and the inspector; and the row of a selected pair
//! that is no longer a candidate. On a frame fed on the device the pairs are the GPU's list of the body's and
//! the poses the GPU's, the GPU's answers those of a batch of the listed pairs alone ([`FrameData::pairs_of`]).

use super::overlays::{contact, Contact};
use super::sim::FrameData;
use crate::batch;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::io::jsonl::pair_line;
use crate::stress::{BodyState, StressScene};

/// One pair of the picked body, as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairRow {
    pub pair: [u32; 2],
    /// The other body.
    pub other: u32,
    /// The GPU's raw answer (`None` in CPU mode).
    pub gpu: Option<GjkResult<f32>>,
    /// The CPU reference's answer.
    pub cpu: GjkResult<f32>,
    /// EPA on the CPU, when the CPU found the pair intersecting.
    pub contact: Option<Contact>,
    /// The latest check disputed this pair.
    pub disputed: bool,
    /// The pair is among the frame's candidate pairs. A selected pair that left the list stays selected and
    /// keeps a row, answered by the CPU only, until another is chosen.
    pub candidate: bool,
}

/// The rows of `body`'s pairs: disputed ones first, then colliding ones, then by distance.
pub fn pair_rows(
    scene: &StressScene,
    data: &FrameData,
    body: u32,
    kind: QueryKind,
    config: &GjkConfig,
) -> Vec<PairRow> {
    let mut rows: Vec<PairRow> = data
        .pairs_of(body)
        .into_iter()
        .map(|(gpu, pair)| cpu_row(scene, data, body, pair, kind, config, gpu))
        .collect();
    rows.sort_by(|x, y| {
        y.disputed
            .cmp(&x.disputed)
            .then(y.cpu.intersecting.cmp(&x.cpu.intersecting))
            .then(x.cpu.distance.total_cmp(&y.cpu.distance))
    });
    rows
}

/// The picked body's state from its rows, on a frame whose states the host did not compute (its pairs stayed on
/// the device): disputed when a row is, colliding when the CPU found a candidate pair intersecting, else free.
pub fn state_of_rows(rows: &[PairRow]) -> BodyState {
    let candidates = || rows.iter().filter(|r| r.candidate);
    if candidates().any(|r| r.disputed) {
        BodyState::Disagreement
    } else if candidates().any(|r| r.cpu.intersecting) {
        BodyState::Colliding
    } else {
        BodyState::Free
    }
}

/// The row of `pair`, one of `body`'s pairs, answered by the CPU on the frame's poses, with the GPU's answer
/// when it is one of the frame's candidate pairs (`gpu` given).
fn cpu_row(
    scene: &StressScene,
    data: &FrameData,
    body: u32,
    pair: [u32; 2],
    kind: QueryKind,
    config: &GjkConfig,
    gpu: Option<GjkResult<f32>>,
) -> PairRow {
    let cpu = batch::query_pair(&scene.shapes, &data.instances, pair, kind, config);
    let contact = cpu
        .intersecting
        .then(|| contact(scene, data, pair, config))
        .flatten();
    PairRow {
        pair,
        other: if pair[0] == body { pair[1] } else { pair[0] },
        gpu,
        cpu,
        contact,
        disputed: data.disputed_pairs.contains(&pair),
        candidate: data.is_candidate(pair),
    }
}

/// The row of a selected pair of `body` that is not among the frame's candidate pairs (its bounding boxes
/// parted): the CPU's answer on the frame's poses. `None` when the pair is not `body`'s or names a body not
/// in the frame.
pub fn non_candidate_row(
    scene: &StressScene,
    data: &FrameData,
    body: u32,
    pair: [u32; 2],
    kind: QueryKind,
    config: &GjkConfig,
) -> Option<PairRow> {
    let in_frame = |b: u32| (b as usize) < data.instances.len();
    (pair.contains(&body) && pair[0] != pair[1] && pair.iter().all(|&b| in_frame(b)))
        .then(|| cpu_row(scene, data, body, pair, kind, config, None))
}

/// `pair` as a `query` input line (world poses of the frame, shapes as the narrow phase saw them), or
/// `None` when an index is out of range.
pub fn pair_query_line(scene: &StressScene, data: &FrameData, pair: [u32; 2]) -> Option<String> {
    let [i, j] = pair.map(|k| k as usize);
    let (a, b) = (data.instances.get(i)?, data.instances.get(j)?);
    Some(pair_line(
        scene.shapes.get(a.shape as usize)?,
        &a.pose.to_f64(),
        scene.shapes.get(b.shape as usize)?,
        &b.pose.to_f64(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkStatus;
    use glam::Vec3;

    fn row(intersecting: bool, disputed: bool, candidate: bool) -> PairRow {
        let cpu = GjkResult {
            status: if intersecting {
                GjkStatus::Intersecting
            } else {
                GjkStatus::Separated
            },
            intersecting,
            distance: if intersecting { 0.0 } else { 0.5 },
            witness_a: Vec3::ZERO,
            witness_b: Vec3::X,
            normal: Vec3::X,
            iterations: 3,
        };
        PairRow {
            pair: [0, 1],
            other: 1,
            gpu: None,
            cpu,
            contact: None,
            disputed,
            candidate,
        }
    }

    #[test]
    fn the_picked_bodys_state_follows_its_candidate_rows() {
        assert_eq!(state_of_rows(&[]), BodyState::Free);
        assert_eq!(state_of_rows(&[row(false, false, true)]), BodyState::Free);
        // A selected pair whose boxes parted does not make the body collide.
        assert_eq!(state_of_rows(&[row(true, false, false)]), BodyState::Free);
        let colliding = [row(false, false, true), row(true, false, true)];
        assert_eq!(state_of_rows(&colliding), BodyState::Colliding);
        let disputed = [row(true, false, true), row(false, true, true)];
        assert_eq!(state_of_rows(&disputed), BodyState::Disagreement);
    }
}
