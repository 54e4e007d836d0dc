//! Batches whose scene does not fit one binding. Instances beyond one binding but within one buffer stay on the
//! GPU, and runs of consecutive pairs bind the window of instances they use ([`plan_windows`]: the pairs are
//! rebased as they are staged). Otherwise consecutive pairs are gathered into groups whose instances (and hulls,
//! unless every hull is resident) fit their buffers together ([`plan_groups`]); each group's data goes up at
//! local indices before its chunks, and its pairs are rewritten to those indices. Any batch runs this way,
//! however many hulls and instances it has, as long as one pair's own two hulls fit.

use super::hulls::{HullSet, HULL_STRIDE};
use super::layout::{GpuInstance, INSTANCE_STRIDE, VERTEX_STRIDE};
use super::limits::BufferLimits;
use super::GpuError;
use crate::instance::Pair;
use std::ops::Range;

/// Consecutive pairs and the scene data they need, at local indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    /// The pairs of the batch this group answers.
    pub pairs: Range<usize>,
    /// The global index of each local instance.
    pub instances: Vec<u32>,
    /// The hull (local, or global when every hull is resident) of each local instance.
    pub instance_hulls: Vec<u32>,
    /// The global index of each local hull (empty when every hull is resident).
    pub hulls: Vec<u32>,
    /// Points the group's hulls take in the vertex pool.
    pub vertex_count: u64,
    /// `pairs` rewritten to local instance indices.
    pub local_pairs: Vec<Pair>,
}

/// Local index of each global instance and hull in the group being built, valid where the stamp is current.
struct Stamps {
    current: u32,
    instance: Vec<(u32, u32)>,
    hull: Vec<(u32, u32)>,
}

impl Stamps {
    fn instance(&self, i: u32) -> Option<u32> {
        let (stamp, local) = self.instance[i as usize];
        (stamp == self.current).then_some(local)
    }

    fn hull(&self, h: u32) -> Option<u32> {
        let (stamp, local) = self.hull[h as usize];
        (stamp == self.current).then_some(local)
    }
}

/// What adding one pair to a group would add: new instances and new hulls (global indices, no repeats).
fn additions(
    pair: Pair,
    instances: &[GpuInstance],
    stamps: &Stamps,
    track_hulls: bool,
) -> (Vec<u32>, Vec<u32>) {
    let mut new_instances = Vec::with_capacity(2);
    let mut new_hulls = Vec::with_capacity(2);
    for i in pair {
        if stamps.instance(i).is_some() || new_instances.contains(&i) {
            continue;
        }
        new_instances.push(i);
        let h = instances[i as usize].hull;
        if track_hulls && stamps.hull(h).is_none() && !new_hulls.contains(&h) {
            new_hulls.push(h);
        }
    }
    (new_instances, new_hulls)
}

/// The first buffer a group would overflow with these totals, as (what, bytes, limit).
fn overflow(
    group: &Group,
    new_instances: usize,
    new_hulls: &[u32],
    set: &HullSet,
    limits: &BufferLimits,
) -> Option<(&'static str, u64, u64)> {
    let instances = (group.instances.len() + new_instances) as u64 * INSTANCE_STRIDE;
    if instances > limits.instances {
        return Some(("instance buffer", instances, limits.instances));
    }
    let points: u64 = new_hulls.iter().map(|&h| set.footprint(h) as u64).sum();
    let vertices = (group.vertex_count + points) * VERTEX_STRIDE;
    if vertices > limits.vertex_pool {
        return Some(("vertex pool", vertices, limits.vertex_pool));
    }
    let hulls = (group.hulls.len() + new_hulls.len()) as u64 * HULL_STRIDE;
    if hulls > limits.hull_table {
        return Some(("hull table", hulls, limits.hull_table));
    }
    None
}

/// Splits `pairs` into groups that fit `limits`. `hulls_resident`: every hull is on the GPU already, so groups
/// carry instances only. A pair whose own data does not fit is an error naming it and the buffer.
pub fn plan_groups(
    pairs: &[Pair],
    instances: &[GpuInstance],
    set: &HullSet,
    hulls_resident: bool,
    limits: &BufferLimits,
) -> Result<Vec<Group>, GpuError> {
    let mut stamps = Stamps {
        current: 1,
        instance: vec![(0, 0); instances.len()],
        hull: vec![(0, 0); if hulls_resident { 0 } else { set.hulls.len() }],
    };
    let track_hulls = !hulls_resident;
    let mut groups = Vec::new();
    let mut group = Group::default();
    for (k, &pair) in pairs.iter().enumerate() {
        let (mut new_instances, mut new_hulls) = additions(pair, instances, &stamps, track_hulls);
        let mut full = overflow(&group, new_instances.len(), &new_hulls, set, limits);
        if full.is_some() && !group.local_pairs.is_empty() {
            group.pairs.end = k;
            groups.push(std::mem::take(&mut group));
            group.pairs = k..k;
            stamps.current += 1;
            (new_instances, new_hulls) = additions(pair, instances, &stamps, track_hulls);
            full = overflow(&group, new_instances.len(), &new_hulls, set, limits);
        }
        if let Some((what, bytes, limit)) = full {
            return Err(GpuError::PairTooLarge {
                pair: k,
                what,
                bytes,
                limit,
            });
        }
        for h in new_hulls {
            stamps.hull[h as usize] = (stamps.current, group.hulls.len() as u32);
            group.vertex_count += set.footprint(h) as u64;
            group.hulls.push(h);
        }
        for i in new_instances {
            stamps.instance[i as usize] = (stamps.current, group.instances.len() as u32);
            let hull = instances[i as usize].hull;
            group.instances.push(i);
            group.instance_hulls.push(if track_hulls {
                stamps.hull(hull).unwrap_or(0)
            } else {
                hull
            });
        }
        group
            .local_pairs
            .push(pair.map(|i| stamps.instance(i).unwrap_or(0)));
    }
    group.pairs.end = pairs.len();
    if !group.local_pairs.is_empty() {
        groups.push(group);
    }
    Ok(groups)
}

/// A run of consecutive pairs whose instances all lie in `base..base + window` of the resident instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub pairs: Range<usize>,
    /// The first instance of the window (a multiple of the binding offset alignment, in instances).
    pub base: u32,
}

/// Splits `pairs` into runs whose instances fit windows of `window` instances starting at multiples of
/// `align`; `None` when one pair's two instances lie further apart than a window allows.
pub fn plan_windows(pairs: &[Pair], window: u32, align: u32) -> Option<Vec<Window>> {
    let align = align.max(1);
    let fits = |lo: u32, hi: u32| hi - lo / align * align < window;
    let mut windows = Vec::new();
    let (mut start, mut lo, mut hi) = (0, u32::MAX, 0);
    for (k, &[a, b]) in pairs.iter().enumerate() {
        let (low, high) = (a.min(b), a.max(b));
        if !fits(low, high) {
            return None;
        }
        if !fits(lo.min(low), hi.max(high)) {
            windows.push(Window {
                pairs: start..k,
                base: lo / align * align,
            });
            (start, lo, hi) = (k, low, high);
        } else {
            (lo, hi) = (lo.min(low), hi.max(high));
        }
    }
    if start < pairs.len() {
        windows.push(Window {
            pairs: start..pairs.len(),
            base: lo / align * align,
        });
    }
    Some(windows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::ConvexShape;
    use glam::Vec3;

    fn scene(hulls: usize, instances: usize) -> (HullSet, Vec<GpuInstance>) {
        let shapes: Vec<ConvexShape> = (0..hulls)
            .map(|k| ConvexShape::cuboid(Vec3::new(1.0 + k as f32, 1.0, 1.0)).unwrap())
            .collect();
        let set = HullSet::pack(&shapes);
        let instances = (0..instances)
            .map(|k| GpuInstance {
                hull: (k % hulls) as u32,
                ..GpuInstance::default()
            })
            .collect();
        (set, instances)
    }

    fn unlimited() -> BufferLimits {
        BufferLimits {
            vertex_pool: u64::MAX,
            hull_table: u64::MAX,
            instances: u64::MAX,
            pairs: u64::MAX,
            results: u64::MAX,
            max_buffer: u64::MAX,
        }
    }

    /// Every group's local pairs, mapped back through its tables, are the batch's pairs, and every group fits.
    fn check(
        pairs: &[Pair],
        instances: &[GpuInstance],
        set: &HullSet,
        resident: bool,
        limits: &BufferLimits,
    ) -> usize {
        let groups = plan_groups(pairs, instances, set, resident, limits).unwrap();
        let mut next = 0;
        for g in &groups {
            assert_eq!(g.pairs.start, next);
            next = g.pairs.end;
            for (local, global) in g.local_pairs.iter().zip(&pairs[g.pairs.clone()]) {
                assert_eq!(local.map(|i| g.instances[i as usize]), *global);
                for i in local {
                    let hull = g.instance_hulls[*i as usize];
                    let global_hull = if resident {
                        hull
                    } else {
                        g.hulls[hull as usize]
                    };
                    assert_eq!(
                        global_hull,
                        instances[g.instances[*i as usize] as usize].hull
                    );
                }
            }
            assert!(g.instances.len() as u64 * INSTANCE_STRIDE <= limits.instances);
            assert!(g.vertex_count * VERTEX_STRIDE <= limits.vertex_pool);
            assert!(g.hulls.len() as u64 * HULL_STRIDE <= limits.hull_table);
        }
        assert_eq!(next, pairs.len());
        groups.len()
    }

    #[test]
    fn groups_respect_each_limit_and_map_back_to_the_batch() {
        let (set, instances) = scene(10, 100);
        let pairs: Vec<Pair> = (0..300u32)
            .map(|k| [(k * 7) % 100, (k * 13 + 1) % 100])
            .collect();
        assert_eq!(check(&pairs, &instances, &set, false, &unlimited()), 1);
        let by_instances = BufferLimits {
            instances: 20 * INSTANCE_STRIDE,
            ..unlimited()
        };
        assert!(check(&pairs, &instances, &set, true, &by_instances) > 5);
        let by_vertices = BufferLimits {
            vertex_pool: 3 * 8 * VERTEX_STRIDE,
            ..unlimited()
        };
        assert!(check(&pairs, &instances, &set, false, &by_vertices) > 5);
        let by_hulls = BufferLimits {
            hull_table: 2 * HULL_STRIDE,
            ..unlimited()
        };
        assert!(check(&pairs, &instances, &set, false, &by_hulls) > 5);
    }

    #[test]
    fn windows_hold_every_pair_of_their_run_and_start_aligned() {
        let pairs: Vec<Pair> = (0..1000u32).map(|k| [2 * k, 2 * k + 1]).collect();
        let windows = plan_windows(&pairs, 300, 8).unwrap();
        assert!(windows.len() >= 7, "{windows:?}");
        let mut next = 0;
        for w in &windows {
            assert_eq!((w.pairs.start, w.base % 8), (next, 0));
            next = w.pairs.end;
            for p in &pairs[w.pairs.clone()] {
                assert!(
                    p.iter().all(|&i| i >= w.base && i < w.base + 300),
                    "{w:?} {p:?}"
                );
            }
        }
        assert_eq!(next, 1000);
        // A pair whose instances are further apart than a window leaves it to the gathered groups.
        assert_eq!(plan_windows(&[[0, 1], [5, 400]], 300, 8), None);
    }

    #[test]
    fn a_pair_that_cannot_fit_alone_is_named() {
        let (set, instances) = scene(4, 8);
        let limits = BufferLimits {
            vertex_pool: 8 * VERTEX_STRIDE,
            ..unlimited()
        };
        let err = plan_groups(&[[0, 0], [1, 2]], &instances, &set, false, &limits).unwrap_err();
        assert!(err.to_string().contains("pair 1"), "{err}");
        assert!(err.to_string().contains("vertex pool"), "{err}");
    }
}
