//! Pairs binned by work before dispatch. A GPU runs 32 consecutive invocations in lock step, so a group costs
//! what its busiest lane costs; dispatching pairs of like hull sizes side by side keeps the lanes evenly busy.
//! While staging a batch the host sorts the pairs by a work key (a stable counting sort: one pass to count,
//! one to place), dispatches them in that order, and writes each record back to its pair's own index when the
//! batch is read back. The kernels are unchanged: a pair's answer is computed from that pair alone, so only the
//! order of the work changes (docs/gpu.md, "Pairs binned by work").

use super::scene::Scene;
use crate::instance::Pair;

/// Size classes of one shape: 0 for a sphere or capsule (a core of one or two points, the pairs the CPU answers in
/// closed form), else 1 + the points one support call reads in quarter octaves (their bit length and the two bits
/// below the leading one: 8, 10, 12, 14, 16, 20, ... points apart).
const CLASSES: usize = 1 + 33 * 4;

/// Reused buffers of the binning: the dispatch order and the pairs in it, the bins' counts, and a scratch copy of
/// the records to write back.
#[derive(Default)]
pub(super) struct WorkBins {
    /// `order[j]`: the pair dispatched in invocation `j`.
    order: Vec<u32>,
    /// The pairs in dispatch order.
    binned: Vec<Pair>,
    counts: Vec<u32>,
    keys: Vec<u16>,
    scratch: Vec<u32>,
}

/// Instance `i`'s size class ([`CLASSES`]).
fn size_class(scene: &Scene, instance: u32) -> usize {
    let hull = &scene.hull_set().hulls[scene.gpu_instances()[instance as usize].hull as usize];
    if hull.count <= 2 {
        0
    } else {
        let points = scene.points_of(instance).max(1);
        let bits = 32 - points.leading_zeros();
        let below = if bits > 2 {
            (points >> (bits - 3)) & 3
        } else {
            (points << (3 - bits)) & 3
        };
        1 + ((bits - 1) * 4 + below) as usize
    }
}

/// The pair's bin: the class of its bigger shape, then of its smaller one, so sphere and capsule pairs come
/// first in a bin of their own, and each later bin holds pairs whose support calls read alike.
fn work_key(scene: &Scene, [a, b]: Pair) -> u16 {
    let (a, b) = (size_class(scene, a), size_class(scene, b));
    (a.max(b) * CLASSES + a.min(b)) as u16
}

impl WorkBins {
    /// Sorts `pairs` into bins; returns them in dispatch order, or `None` when a pair names an instance the scene
    /// lacks (the batch then runs unbinned and fails naming it) or there is nothing to reorder.
    pub(super) fn bin(&mut self, scene: &Scene, pairs: &[Pair]) -> Option<&[Pair]> {
        let instances = scene.instance_count();
        if pairs.len() < 2 || pairs.iter().flatten().any(|&i| i as usize >= instances) {
            return None;
        }
        self.keys.clear();
        self.keys.extend(pairs.iter().map(|&p| work_key(scene, p)));
        self.counts.clear();
        self.counts.resize(CLASSES * CLASSES, 0);
        for &key in &self.keys {
            self.counts[key as usize] += 1;
        }
        let mut start = 0;
        for count in &mut self.counts {
            let n = *count;
            *count = start;
            start += n;
        }
        self.order.clear();
        self.order.resize(pairs.len(), 0);
        for (k, &key) in self.keys.iter().enumerate() {
            let slot = &mut self.counts[key as usize];
            self.order[*slot as usize] = k as u32;
            *slot += 1;
        }
        self.binned.clear();
        self.binned
            .extend(self.order.iter().map(|&k| pairs[k as usize]));
        Some(&self.binned)
    }

    /// The dispatch order of the last [`WorkBins::bin`]: `order()[j]` is the pair invocation `j` ran.
    pub(super) fn order(&self) -> &[u32] {
        &self.order
    }

    /// Moves the first `order().len()` records of `words` (`stride` words each, in dispatch order) to their pairs'
    /// own indices.
    pub(super) fn restore(&mut self, words: &mut [u32], stride: usize) {
        let records = self.order.len() * stride;
        self.scratch.clear();
        self.scratch.extend_from_slice(&words[..records]);
        for (record, &pair) in self.scratch.chunks_exact(stride).zip(&self.order) {
            let at = pair as usize * stride;
            words[at..at + stride].copy_from_slice(record);
        }
    }
}
