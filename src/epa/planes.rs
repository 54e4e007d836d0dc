//! The planes of EPA's face slots, one array per component (x, y and z of the unit normal, and the distance
//! from the origin), for the two scans of every expansion: the nearest face (a minimum over the distances),
//! and which faces a new point may see (a height over every plane, eight slots at a time).
//!
//! Why its own layout: the scan for the faces a new point may see walked interleaved slots with a scalar dot
//! product and a branch per slot. Over separate arrays, eight heights are computed and compared together
//! (vector instructions, for a loop of fixed length) into a mask of the slots to look at. Measured with both
//! scans in one binary, timed in alternation on the overlapping pairs of `benches/parry_cases`: 1.7% to 2.9%
//! less time per penetration query (median per-round ratios; hull1000_hull1000, hull1000_box and the mix).
//! The eight heights are written with explicit SIMD lanes ([`Real::heights_not_below`]): the compiler's own
//! vectorisation of the scalar loop shuffled single lanes in and out of registers, and the explicit lanes took
//! another 1.1% to 1.8% off a penetration query (same method: the mix, hull1000_hull1000 and hull1000_box).

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

/// The planes of the face slots (see the module's text).
#[derive(Clone)]
pub struct Planes<R: Real> {
    x: Vec<R>,
    y: Vec<R>,
    z: Vec<R>,
    dist: Vec<R>,
}

impl<R: Real> Planes<R> {
    pub fn with_capacity(slots: usize) -> Self {
        let room = slots.div_ceil(GROUP) * GROUP;
        Self {
            x: Vec::with_capacity(room),
            y: Vec::with_capacity(room),
            z: Vec::with_capacity(room),
            dist: Vec::with_capacity(room),
        }
    }

    /// Makes room for slot `s` (a group of dead planes at a time). Storage is never given back: a polytope
    /// reused for another run keeps its planes, and slots at or past its slot count are never read (both scans
    /// stop at the count), so the next run's `set` is their first read-relevant write. Emptying the arrays
    /// between runs made every run write its groups of dead planes again (`memset` calls): 1.5% to 2.5% of a
    /// penetration query, measured in one binary on the mix, hull1000_hull1000 and cube_sphere482.
    pub fn reach_slot(&mut self, s: usize) {
        while self.dist.len() <= s {
            let len = self.dist.len() + GROUP;
            self.x.resize(len, R::ZERO);
            self.y.resize(len, R::ZERO);
            self.z.resize(len, R::ZERO);
            self.dist.resize(len, dead_dist::<R>());
        }
    }

    /// Slot `s` (within reach) holds the plane of unit normal `normal` at distance `dist` from the origin.
    pub fn set(&mut self, s: usize, normal: R::V, dist: R) {
        self.x[s] = R::comp(normal, 0);
        self.y[s] = R::comp(normal, 1);
        self.z[s] = R::comp(normal, 2);
        self.dist[s] = dist;
    }

    /// Slot `s` holds a dead plane.
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
        self.x[s] * wx + self.y[s] * wy + self.z[s] * wz - self.dist[s]
    }

    /// Calls `found` with every slot below `slots` where the height of `w` is not below `floor` (a height that
    /// is not a number included), in increasing order.
    pub fn not_below(&self, slots: usize, w: R::V, floor: R, mut found: impl FnMut(usize)) {
        let groups = self
            .x
            .chunks_exact(GROUP)
            .zip(self.y.chunks_exact(GROUP))
            .zip(self.z.chunks_exact(GROUP))
            .zip(self.dist.chunks_exact(GROUP));
        for (g, (((x, y), z), dist)) in groups.enumerate() {
            let base = g * GROUP;
            if base >= slots {
                break;
            }
            let mut mask =
                R::heights_not_below(group(x), group(y), group(z), group(dist), w, floor);
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

/// One group's entries as the array [`Real::heights_not_below`] takes (`chunks_exact` gives whole groups).
fn group<R>(a: &[R]) -> &[R; GROUP] {
    a.try_into().expect("a whole group")
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
