//! The planes of EPA's face slots, in groups of eight slots with one array per component (x, y and z of the
//! unit normal, and the distance from the origin), for the two scans of every expansion: the nearest face (a
//! minimum over the distances, which are kept once more in one array for it), and which faces a new point may
//! see (a height over every plane, eight slots at a time).
//!
//! Why its own layout: the scan for the faces a new point may see walked interleaved slots with a scalar dot
//! product and a branch per slot. Over separate arrays, eight heights are computed and compared together
//! (vector instructions, for a loop of fixed length) into a mask of the slots to look at. Measured with both
//! scans in one binary, timed in alternation on the overlapping pairs of `benches/vs_parry/cases.rs`: 1.7% to 2.9%
//! less time per penetration query (median per-round ratios; hull1000_hull1000, hull1000_box and the mix).
//! The eight heights are written with explicit SIMD lanes ([`Real::heights_not_below`]): the compiler's own
//! vectorisation of the scalar loop shuffled single lanes in and out of registers, and the explicit lanes took
//! another 1.1% to 1.8% off a penetration query (same method: the mix, hull1000_hull1000 and hull1000_box).
//! The groups (instead of four arrays cut into groups) and the storage written once for the first try's bounds
//! took 2.7% of the instructions off an overlapping penetration query of the mix (callgrind; see
//! docs/benchmarks.md).

use crate::real::Real;

/// Slots are scanned in groups of this many; the arrays are kept a whole number of groups long, the slots
/// past the last one in use holding dead planes.
const GROUP: usize = 8;

// `Real::heights_not_below` takes one group of eight.
const _: () = assert!(GROUP == 8);

/// A dead slot's distance: no face is nearer than it, and no finite point is in front of its plane (whose
/// normal is zero), so neither scan picks it.
fn dead_dist<R: Real>() -> R {
    R::from_f64(f64::INFINITY)
}

/// Eight slots' planes, one array per component: what [`Real::heights_not_below`] takes as it is.
#[derive(Clone, Copy)]
struct Group<R: Real> {
    x: [R; GROUP],
    y: [R; GROUP],
    z: [R; GROUP],
    dist: [R; GROUP],
}

impl<R: Real> Group<R> {
    fn dead() -> Self {
        Self {
            x: [R::ZERO; GROUP],
            y: [R::ZERO; GROUP],
            z: [R::ZERO; GROUP],
            dist: [dead_dist::<R>(); GROUP],
        }
    }
}

/// The planes of the face slots (see the module's text): in groups of eight slots for the scan of the faces a
/// new point may see (one bounds check a slot written, none a group read, where four separate arrays cut into
/// groups took four of each), and the distances once more in one array for the nearest-face search.
#[derive(Clone)]
pub struct Planes<R: Real> {
    groups: Vec<Group<R>>,
    dist: Vec<R>,
}

impl<R: Real> Planes<R> {
    /// Planes for `slots` slots, all dead: the storage a polytope of the first try's bounds ever needs, written
    /// once when a thread makes its spare polytope (2.5 KiB), so that a new slot costs no growth check out of
    /// line (`reach_slot` was a call per new face).
    pub fn with_capacity(slots: usize) -> Self {
        let groups = slots.div_ceil(GROUP);
        Self {
            groups: vec![Group::dead(); groups],
            dist: vec![dead_dist::<R>(); groups * GROUP],
        }
    }

    /// Makes room for slot `s` (a group of dead planes at a time): only polytopes of grown bounds, made for one
    /// run, grow past [`Self::with_capacity`]. Storage is never given back: a polytope reused for another run
    /// keeps its planes, and slots at or past its slot count are never read (both scans stop at the count), so
    /// the next run's `set` is their first read-relevant write. Emptying the arrays between runs made every run
    /// write its groups of dead planes again (`memset` calls): 1.5% to 2.5% of a penetration query, measured in
    /// one binary on the mix, hull1000_hull1000 and cube_sphere482.
    #[inline(always)]
    pub fn reach_slot(&mut self, s: usize) {
        if s >= self.dist.len() {
            self.grow_to(s);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, s: usize) {
        while self.dist.len() <= s {
            self.groups.push(Group::dead());
            self.dist
                .resize(self.groups.len() * GROUP, dead_dist::<R>());
        }
    }

    /// Slot `s` (within reach) holds the plane of unit normal `normal` at distance `dist` from the origin.
    #[inline(always)]
    pub fn set(&mut self, s: usize, normal: R::V, dist: R) {
        let (group, lane) = (&mut self.groups[s / GROUP], s % GROUP);
        group.x[lane] = R::comp(normal, 0);
        group.y[lane] = R::comp(normal, 1);
        group.z[lane] = R::comp(normal, 2);
        group.dist[lane] = dist;
        self.dist[s] = dist;
    }

    /// Slot `s` holds a dead plane.
    #[inline(always)]
    pub fn kill(&mut self, s: usize) {
        self.set(s, R::vzero(), dead_dist::<R>());
    }

    /// The distances of the first `slots` slots (a dead slot's is +infinity).
    pub fn distances(&self, slots: usize) -> &[R] {
        &self.dist[..slots]
    }

    /// Slot `s`'s height of `w` above its plane, `normal . w - dist`, rounded as [`Self::not_below`] rounds
    /// it.
    #[cfg(test)]
    pub fn height(&self, s: usize, w: R::V) -> R {
        let (wx, wy, wz) = (R::comp(w, 0), R::comp(w, 1), R::comp(w, 2));
        let (g, l) = (&self.groups[s / GROUP], s % GROUP);
        g.x[l] * wx + g.y[l] * wy + g.z[l] * wz - g.dist[l]
    }

    /// Calls `found` with every slot below `slots` where the height of `w` is not below `floor` (a height that
    /// is not a number included), in increasing order.
    #[inline]
    pub fn not_below(&self, slots: usize, w: R::V, floor: R, mut found: impl FnMut(usize)) {
        let used = slots.div_ceil(GROUP).min(self.groups.len());
        for (g, group) in self.groups[..used].iter().enumerate() {
            let base = g * GROUP;
            let mut mask =
                R::heights_not_below(&group.x, &group.y, &group.z, &group.dist, w, floor);
            // A point that is not a number is "not below" dead planes too: keep to the slots in use.
            if slots - base < GROUP {
                mask &= (1 << (slots - base)) - 1;
            }
            while mask != 0 {
                found(base + mask.trailing_zeros() as usize);
                mask &= mask - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3A;

    #[test]
    fn the_scan_finds_exactly_the_live_planes_at_or_above_the_floor() {
        let mut planes = Planes::<f32>::with_capacity(4);
        // 19 slots: three groups, the last one partly used.
        for s in 0..19 {
            planes.reach_slot(s);
            planes.set(s, Vec3A::Z, s as f32);
        }
        planes.kill(4);
        let w = Vec3A::new(3.0, -2.0, 10.0);
        let mut found = Vec::new();
        planes.not_below(19, w, -0.5, |s| found.push(s));
        // Heights 10 - s: at or above -0.5 for s <= 10, less the dead slot.
        assert_eq!(found, [0, 1, 2, 3, 5, 6, 7, 8, 9, 10]);
        for s in 0..19 {
            assert_eq!(planes.height(s, w) >= -0.5, found.contains(&s), "slot {s}");
        }
        // A point that is not a number: every slot in use (the exact test then decides), none past them.
        let mut found = Vec::new();
        planes.not_below(19, Vec3A::NAN, -0.5, |s| found.push(s));
        assert_eq!(found, (0..19).collect::<Vec<_>>());
        assert_eq!(planes.distances(19)[4], f32::INFINITY);
    }
}
