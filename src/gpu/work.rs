//! How evenly a kernel's lanes work: per-pair counts from the counting kernel (`shaders/gjk_counting.wgsl`,
//! [`super::NarrowPhase::count_work`]) and the proxies any machine can compute from them, software adapters
//! included. A GPU runs 32 consecutive invocations (NVIDIA's warp) in lock step, so a group is as slow as its
//! busiest lane: SIMT efficiency is the lanes' work over what the busiest lane's work costs all 32.

/// The width of the groups SIMT efficiency is taken over: NVIDIA's warp (AMD's wave is 32 or 64).
pub const SIMT_WIDTH: usize = 32;

/// One pair's work in the GJK kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairWork {
    /// GJK iterations (the answer's `iterations`).
    pub gjk_steps: u32,
    /// Support calls on either shape (two at the start, two a step).
    pub support_calls: u32,
    /// Hull points read by those calls (a scan reads the hull padded to a multiple of four, a climb the start
    /// vertex and every neighbour it looks at).
    pub vertex_reads: u32,
    /// The answer's status code.
    pub status: u32,
}

/// The proxies of a batch's counts, pairs in dispatch order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkSummary {
    pub pairs: usize,
    /// [`simt_efficiency`] of the GJK steps.
    pub simt_gjk_steps: f64,
    /// [`simt_efficiency`] of the hull points read (the support loops' trips).
    pub simt_support_reads: f64,
    /// Hull points read per support call, over the batch.
    pub vertex_reads_per_support: f64,
}

impl WorkSummary {
    pub fn of(work: &[PairWork]) -> Self {
        let calls: u64 = work.iter().map(|w| u64::from(w.support_calls)).sum();
        let reads: u64 = work.iter().map(|w| u64::from(w.vertex_reads)).sum();
        Self {
            pairs: work.len(),
            simt_gjk_steps: simt_efficiency(work.iter().map(|w| w.gjk_steps)),
            simt_support_reads: simt_efficiency(work.iter().map(|w| w.vertex_reads)),
            vertex_reads_per_support: if calls == 0 {
                0.0
            } else {
                reads as f64 / calls as f64
            },
        }
    }
}

/// For each [`SIMT_WIDTH`] consecutive lanes, the sum of their loop trips over the width times the largest,
/// summed over the groups before dividing (a group that works more weighs more). A last partial group counts its
/// lanes only. 1 when every lane of a group works alike; 1 also when nothing works.
pub fn simt_efficiency(trips: impl Iterator<Item = u32>) -> f64 {
    let trips: Vec<u64> = trips.map(u64::from).collect();
    let (mut used, mut paid) = (0u64, 0u64);
    for group in trips.chunks(SIMT_WIDTH) {
        used += group.iter().sum::<u64>();
        paid += group.len() as u64 * group.iter().copied().max().unwrap_or(0);
    }
    if paid == 0 {
        1.0
    } else {
        used as f64 / paid as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn efficiency_is_the_work_over_what_the_busiest_lane_costs() {
        assert_eq!(simt_efficiency(std::iter::repeat_n(7, 64)), 1.0);
        // One lane of 32 busy, the others idle: 1/32.
        let one = (0..32).map(|k| u32::from(k == 5) * 10);
        assert_eq!(simt_efficiency(one), 1.0 / 32.0);
        // Groups weigh by their work: (32 + 32 * 5) / (32 * 1 + 32 * 10).
        let mixed = (0..64).map(|k| {
            if k < 32 {
                1
            } else if k == 40 {
                10
            } else {
                5
            }
        });
        let used = 32.0 + 31.0 * 5.0 + 10.0;
        assert_eq!(simt_efficiency(mixed), used / (32.0 + 320.0));
        // A partial group counts its own lanes.
        assert_eq!(simt_efficiency([2, 4].into_iter()), 0.75);
        assert_eq!(simt_efficiency(std::iter::empty()), 1.0);
    }

    #[test]
    fn the_summary_averages_reads_over_calls() {
        let work = [
            PairWork {
                gjk_steps: 3,
                support_calls: 8,
                vertex_reads: 64,
                status: 0,
            },
            PairWork {
                gjk_steps: 1,
                support_calls: 4,
                vertex_reads: 32,
                status: 0,
            },
        ];
        let summary = WorkSummary::of(&work);
        assert_eq!(summary.vertex_reads_per_support, 8.0);
        assert_eq!(summary.simt_gjk_steps, 4.0 / 6.0);
    }
}
