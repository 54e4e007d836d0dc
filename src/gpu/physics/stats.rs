//! What one GPU step did, as the step's small statistics buffer holds it ([`GpuSolver::stats`]).
//!
//! [`GpuSolver::stats`]: super::GpuSolver::stats

/// What one step of the [`super::GpuSolver`] did: `StepStats`' device twin, without the counts the GPU does
/// not keep.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuStepStats {
    /// Contacts the solver worked on: body pairs that touch (with at least one moving body) and body-plane
    /// pairs that touch.
    pub contacts: u32,
    /// Contact points over those contacts.
    pub points: u32,
    /// Bodies asleep after the step.
    pub asleep: u32,
    /// Kinetic energy of every body after the step.
    pub kinetic_energy: f32,
    /// Pair slots that claimed a touching contact the solver could not use (a body index out of range, the same
    /// body twice, more than four points, a normal that is not a unit vector): each is left out of the step.
    pub rejected: u32,
    /// Points that started from the last step's impulses (the same body pair or plane, the same feature).
    pub warm_started: u32,
}

impl GpuStepStats {
    /// The statistics in the first 24 bytes of the statistics buffer (what a caller that copies the buffer
    /// without waiting reads later).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let words: [u32; 6] = bytemuck::pod_read_unaligned(bytes.get(..24)?);
        Some(Self {
            contacts: words[0],
            points: words[1],
            asleep: words[2],
            kinetic_energy: f32::from_bits(words[3]),
            rejected: words[4],
            warm_started: words[5],
        })
    }
}
