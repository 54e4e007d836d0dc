//! Compact result records: what a batch reads back when the caller asks for less than the full answer. The
//! kernels write them in the order of these structs (`shaders/shared/output.wgsl`, `shaders/shared/penetration.wgsl`):
//! as whole vec4 stores, four words at a time, each word in the lane of its field here
//! (`gpu::shader::record_tests`); conversion to the CPU types happens only when a caller asks for it.
//!
//! | format | bytes per pair | what it holds |
//! |---|---:|---|
//! | [`ResultFormat::Full`] | 48 | [`GpuResult`](super::layout::GpuResult): every field, bit for bit |
//! | [`ResultFormat::Distance`] | 32 | [`PackedDistance`]: witness A, distance, normal, status and iterations |
//! | [`ResultFormat::Hit`] | 4 | [`PackedHit`]: status and iterations (intersection tests) |
//! | [`PenetrationFormat::Full`] | 96 | GJK's [`GpuResult`](super::layout::GpuResult) and `GpuPenetration` |
//! | [`PenetrationFormat::Contact`] | 48 | [`PackedContact`]: the penetration answer, GJK's status and iterations, and GJK's whole answer where the pair does not overlap |

use crate::epa::{Penetration, PenetrationStatus};
use crate::gjk::{GjkResult, GjkStatus};
use bytemuck::{Pod, Zeroable};
use glam::Vec3;

/// Bits of a status word below the iteration count: the status code (GJK's or EPA's, both below 256).
pub(crate) const STATUS_WORD_SHIFT: u32 = 8;
/// The largest iteration count a status word holds; larger counts saturate (the default bounds are 64 for GJK
/// and 60 for EPA).
pub(crate) const MAX_PACKED_ITERATIONS: u32 = u32::MAX >> STATUS_WORD_SHIFT;

#[cfg(test)]
/// `status | iterations << 8`, as the kernels pack it.
pub(crate) fn status_word(status: u32, iterations: u32) -> u32 {
    status | (iterations.min(MAX_PACKED_ITERATIONS) << STATUS_WORD_SHIFT)
}

fn word_status(word: u32) -> u32 {
    word & ((1 << STATUS_WORD_SHIFT) - 1)
}

fn word_iterations(word: u32) -> u32 {
    word >> STATUS_WORD_SHIFT
}

/// An unknown status code (a shader bug) reads as `MaxIterations`, the "no answer" status, never as separated.
fn gjk_status(code: u32) -> GjkStatus {
    GjkStatus::from_u32(code).unwrap_or(GjkStatus::MaxIterations)
}

/// An unknown status code reads as `Degenerate`, a named failure, never as penetrating or separated.
fn penetration_status(code: u32) -> PenetrationStatus {
    PenetrationStatus::ALL
        .get(code as usize)
        .copied()
        .unwrap_or(PenetrationStatus::Degenerate)
}

/// What a GJK batch writes per pair. The value is shared with the kernels (`FORMAT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum ResultFormat {
    /// 48 bytes, every field of the answer bit for bit ([`GpuResult`](super::layout::GpuResult)).
    #[default]
    Full = 0,
    /// 32 bytes ([`PackedDistance`]).
    Distance = 1,
    /// 4 bytes ([`PackedHit`]).
    Hit = 2,
}

/// What a penetration batch writes per pair. The value is shared with the kernels (`FORMAT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum PenetrationFormat {
    /// 96 bytes: GJK's full answer and the penetration answer, bit for bit.
    #[default]
    Full = 0,
    /// 48 bytes ([`PackedContact`]).
    Contact = 3,
}

impl ResultFormat {
    pub const ALL: [ResultFormat; 3] = [
        ResultFormat::Full,
        ResultFormat::Distance,
        ResultFormat::Hit,
    ];

    /// Bytes per pair read back.
    pub fn stride(self) -> u64 {
        match self {
            ResultFormat::Full => 48,
            ResultFormat::Distance => std::mem::size_of::<PackedDistance>() as u64,
            ResultFormat::Hit => std::mem::size_of::<PackedHit>() as u64,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ResultFormat::Full => "full",
            ResultFormat::Distance => "distance",
            ResultFormat::Hit => "hit",
        }
    }
}

/// A distance answer in 32 bytes. The witnesses of an intersecting pair coincide, so one point is stored and the
/// third slot holds the normal; for every other status the second witness is `point + normal * distance`, which
/// is how the kernel's closest points are related (`witness_b - witness_a = normal * distance` up to the
/// rounding of the coordinates, a few ulps of their magnitude). Everything else is the kernel's answer bit for
/// bit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct PackedDistance {
    /// Witness on A (both witnesses when intersecting).
    pub point: [f32; 3],
    pub distance: f32,
    pub normal: [f32; 3],
    /// `status_word`: status and iterations.
    pub status_word: u32,
}

impl PackedDistance {
    pub fn status(&self) -> GjkStatus {
        gjk_status(word_status(self.status_word))
    }

    pub fn intersecting(&self) -> bool {
        self.status() == GjkStatus::Intersecting
    }

    pub fn iterations(&self) -> u32 {
        word_iterations(self.status_word)
    }

    pub fn witness_a(&self) -> Vec3 {
        Vec3::from_array(self.point)
    }

    /// The second witness: the stored point when intersecting, else `point + normal * distance`.
    pub fn witness_b(&self) -> Vec3 {
        if self.intersecting() {
            self.witness_a()
        } else {
            self.witness_a() + self.normal() * self.distance
        }
    }

    pub fn normal(&self) -> Vec3 {
        Vec3::from_array(self.normal)
    }

    /// The CPU-side result.
    pub fn to_result(&self) -> GjkResult<f32> {
        let status = self.status();
        GjkResult {
            status,
            intersecting: status == GjkStatus::Intersecting,
            distance: self.distance,
            witness_a: self.witness_a(),
            witness_b: self.witness_b(),
            normal: self.normal(),
            iterations: self.iterations(),
        }
    }
}

/// An intersection test's answer in 4 bytes: the status and the iteration count.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct PackedHit(pub u32);

impl PackedHit {
    pub fn status(&self) -> GjkStatus {
        gjk_status(word_status(self.0))
    }

    pub fn intersecting(&self) -> bool {
        self.status() == GjkStatus::Intersecting
    }

    pub fn iterations(&self) -> u32 {
        word_iterations(self.0)
    }

    /// The CPU-side result. The record holds no distance or points: the distance is 0 for intersecting pairs
    /// and NaN (unknown) otherwise, the points and the normal are NaN.
    pub fn to_result(&self) -> GjkResult<f32> {
        let status = self.status();
        let intersecting = status == GjkStatus::Intersecting;
        GjkResult {
            status,
            intersecting,
            distance: if intersecting { 0.0 } else { f32::NAN },
            witness_a: Vec3::NAN,
            witness_b: Vec3::NAN,
            normal: Vec3::NAN,
            iterations: self.iterations(),
        }
    }
}

/// A penetration answer in 48 bytes, with GJK's answer folded in.
///
/// `pen_word` packs the penetration status and EPA's iterations, `gjk_word` GJK's status and iterations. Where
/// GJK did not find an overlap (separated, or one of its failures), the penetration answer has no depth, normal
/// or contacts, so those slots hold GJK's distance answer instead: `normal` its normal, `depth` its distance,
/// `contact_a` and `contact_b` its witnesses. Where GJK found an overlap its distance is 0 and the slots hold
/// the penetration answer; GJK's own point in both shapes and its direction are not kept (use
/// [`PenetrationFormat::Full`] for them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct PackedContact {
    pub normal: [f32; 3],
    pub depth: f32,
    pub contact_a: [f32; 3],
    pub pen_word: u32,
    pub contact_b: [f32; 3],
    pub gjk_word: u32,
}

impl PackedContact {
    pub fn gjk_status(&self) -> GjkStatus {
        gjk_status(word_status(self.gjk_word))
    }

    pub fn penetration_status(&self) -> PenetrationStatus {
        penetration_status(word_status(self.pen_word))
    }

    /// Whether the slots hold GJK's distance answer (GJK found no overlap).
    fn holds_gjk_answer(&self) -> bool {
        self.gjk_status() != GjkStatus::Intersecting
    }

    /// The penetration answer, bit for bit as the kernel computed it where GJK found an overlap. Elsewhere it
    /// has no depth, normal or contact points, and they read as zero (the full format's contact points there
    /// are A's centre, what the change to A's frame makes of zero).
    pub fn penetration(&self) -> Penetration<f32> {
        let status = self.penetration_status();
        if self.holds_gjk_answer() {
            return Penetration {
                status,
                depth: 0.0,
                normal: Vec3::ZERO,
                contact_a: Vec3::ZERO,
                contact_b: Vec3::ZERO,
                iterations: word_iterations(self.pen_word),
                depth_upper: None,
            };
        }
        Penetration {
            status,
            depth: self.depth,
            normal: Vec3::from_array(self.normal),
            contact_a: Vec3::from_array(self.contact_a),
            contact_b: Vec3::from_array(self.contact_b),
            iterations: word_iterations(self.pen_word),
            depth_upper: None,
        }
    }

    /// GJK's distance answer: bit for bit where GJK found no overlap. For an overlap, distance 0 with GJK's status
    /// and iterations; the witnesses are the middle of the contact points and the normal is the contact normal
    /// (GJK's own point and direction are not kept).
    pub fn gjk_result(&self) -> GjkResult<f32> {
        let status = self.gjk_status();
        let iterations = word_iterations(self.gjk_word);
        let (a, b) = (
            Vec3::from_array(self.contact_a),
            Vec3::from_array(self.contact_b),
        );
        if self.holds_gjk_answer() {
            return GjkResult {
                status,
                intersecting: false,
                distance: self.depth,
                witness_a: a,
                witness_b: b,
                normal: Vec3::from_array(self.normal),
                iterations,
            };
        }
        let middle = (a + b) * 0.5;
        GjkResult {
            status,
            intersecting: true,
            distance: 0.0,
            witness_a: middle,
            witness_b: middle,
            normal: Vec3::from_array(self.normal),
            iterations,
        }
    }
}

const _: () = assert!(std::mem::size_of::<PackedDistance>() == 32);
const _: () = assert!(std::mem::size_of::<PackedHit>() == 4);
const _: () = assert!(std::mem::size_of::<PackedContact>() == 48);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_words_round_trip_and_saturate() {
        let word = status_word(GjkStatus::Unresolved as u32, 17);
        assert_eq!(PackedHit(word).status(), GjkStatus::Unresolved);
        assert_eq!(PackedHit(word).iterations(), 17);
        let big = status_word(GjkStatus::MaxIterations as u32, u32::MAX);
        assert_eq!(PackedHit(big).iterations(), MAX_PACKED_ITERATIONS);
        assert_eq!(PackedHit(big).status(), GjkStatus::MaxIterations);
        // An unknown code is never an answer.
        assert_eq!(PackedHit(200).status(), GjkStatus::MaxIterations);
    }

    #[test]
    fn a_separated_distance_record_rebuilds_the_second_witness_along_the_normal() {
        let record = PackedDistance {
            point: [1.0, 0.0, 0.0],
            distance: 2.0,
            normal: [0.0, 1.0, 0.0],
            status_word: status_word(GjkStatus::Separated as u32, 5),
        };
        let r = record.to_result();
        assert!(!r.intersecting);
        assert_eq!(r.witness_b, Vec3::new(1.0, 2.0, 0.0));
        assert_eq!((r.distance, r.iterations), (2.0, 5));
        let hit = PackedDistance {
            status_word: status_word(GjkStatus::Intersecting as u32, 3),
            distance: 0.0,
            ..record
        };
        assert_eq!(hit.to_result().witness_b, hit.to_result().witness_a);
        assert_eq!(hit.to_result().normal, Vec3::Y);
    }

    #[test]
    fn a_contact_record_holds_gjk_answer_unless_gjk_found_an_overlap() {
        let apart = PackedContact {
            normal: [1.0, 0.0, 0.0],
            depth: 0.5,
            contact_a: [1.0, 2.0, 3.0],
            pen_word: status_word(PenetrationStatus::Separated as u32, 0),
            contact_b: [1.5, 2.0, 3.0],
            gjk_word: status_word(GjkStatus::Separated as u32, 4),
        };
        let gjk = apart.gjk_result();
        assert_eq!((gjk.distance, gjk.iterations), (0.5, 4));
        assert_eq!(gjk.witness_b, Vec3::new(1.5, 2.0, 3.0));
        let pen = apart.penetration();
        assert_eq!(pen.status, PenetrationStatus::Separated);
        assert_eq!((pen.depth, pen.normal), (0.0, Vec3::ZERO));

        let deep = PackedContact {
            pen_word: status_word(PenetrationStatus::Penetrating as u32, 7),
            gjk_word: status_word(GjkStatus::Intersecting as u32, 2),
            ..apart
        };
        let pen = deep.penetration();
        assert_eq!((pen.depth, pen.iterations), (0.5, 7));
        assert_eq!(pen.contact_b, Vec3::new(1.5, 2.0, 3.0));
        let gjk = deep.gjk_result();
        assert!(gjk.intersecting && gjk.distance == 0.0 && gjk.iterations == 2);
        assert_eq!(gjk.witness_a, gjk.witness_b);
    }
}
