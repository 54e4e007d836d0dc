//! Pairs binned by work before dispatch. A GPU runs 32 consecutive invocations in lock step, so a group costs
//! what its busiest lane costs; dispatching pairs of like hull sizes side by side keeps the lanes evenly busy.
//! While staging a batch the host sorts the pairs by a work key (a stable counting sort: one pass to count,
//! one to place), dispatches them in that order, and writes each record back to its pair's own index when the
//! batch is read back. The kernels are unchanged: a pair's answer is computed from that pair alone, so only the
//! order of the work changes (docs/gpu.md, "Pairs binned by work"). With the subgroup scan in use
//! ([`super::ScanKernel::Subgroup`]) the pairs it answers go last, binned alike, so a chunk hands them to it as
//! one run at its end.

use super::scan_kernel::SUBGROUP_SCAN_MIN_POINTS;
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
    /// The first pair, in dispatch order, that the subgroup kernel answers (the pair count when none).
    subgroup_from: usize,
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

/// Whether instance `i`'s support calls scan [`SUBGROUP_SCAN_MIN_POINTS`] points or more (a climbing hull's walk
/// reads a few dozen, whatever its size).
fn scans_many(scene: &Scene, instance: u32) -> bool {
    let hull = &scene.hull_set().hulls[scene.gpu_instances()[instance as usize].hull as usize];
    hull.climbs == 0 && hull.count >= SUBGROUP_SCAN_MIN_POINTS
}

/// The pair's bin: the class of its bigger shape, then of its smaller one, so sphere and capsule pairs come
/// first in a bin of their own, and each later bin holds pairs whose support calls read alike. With `subgroup`,
/// the pairs with a shape that [`scans_many`] follow all others, in bins of their own.
fn work_key(scene: &Scene, [a, b]: Pair, subgroup: bool) -> u16 {
    let last = subgroup && (scans_many(scene, a) || scans_many(scene, b));
    let (a, b) = (size_class(scene, a), size_class(scene, b));
    (usize::from(last) * CLASSES * CLASSES + a.max(b) * CLASSES + a.min(b)) as u16
}

impl WorkBins {
    /// Sorts `pairs` into bins, those the subgroup kernel answers last where `subgroup`
    /// ([`WorkBins::subgroup_from`]), for [`WorkBins::binned`]; `false` when a pair names an instance the scene
    /// lacks (the batch then runs unbinned and fails naming it) or there is nothing to reorder (one pair, unless
    /// the subgroup kernel may answer it).
    pub(super) fn bin(&mut self, scene: &Scene, pairs: &[Pair], subgroup: bool) -> bool {
        let instances = scene.instance_count();
        let nothing_to_do = pairs.is_empty() || (pairs.len() < 2 && !subgroup);
        if nothing_to_do || pairs.iter().flatten().any(|&i| i as usize >= instances) {
            return false;
        }
        self.keys.clear();
        self.keys
            .extend(pairs.iter().map(|&p| work_key(scene, p, subgroup)));
        self.counts.clear();
        let halves = if subgroup { 2 } else { 1 };
        self.counts.resize(halves * CLASSES * CLASSES, 0);
        self.subgroup_from = if subgroup {
            self.keys
                .iter()
                .filter(|&&k| (k as usize) < CLASSES * CLASSES)
                .count()
        } else {
            pairs.len()
        };
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
        true
    }

    /// The pairs of the last [`WorkBins::bin`], in dispatch order.
    pub(super) fn binned(&self) -> &[Pair] {
        &self.binned
    }

    /// The first pair, in the dispatch order of the last [`WorkBins::bin`], that the subgroup kernel answers: the
    /// pairs from there on each have a shape whose support calls scan [`SUBGROUP_SCAN_MIN_POINTS`] points or
    /// more. The pair count when the bins were made without `subgroup`.
    pub(super) fn subgroup_from(&self) -> usize {
        self.subgroup_from
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
