//! The records the GPU physics' kernels share, twins of `shaders/shared/physics_types.wgsl`: a body and the
//! contact of one broad-phase pair slot.

use crate::physics::contact::{Contact, ContactKey, Partner, SolverPoint};
use crate::physics::RigidBody;
use glam::{Quat, Vec3};

/// [`GpuPhysicsBody::info`]'s flag word: the body sleeps (it holds still and counts as static).
pub const PHYSICS_BODY_ASLEEP: u32 = 1;

/// [`GpuPhysicsContact::bodies`]' status word: the pair does not touch this step.
pub const PHYSICS_CONTACT_NONE: u32 = 0;
/// The pair touches: the record holds its normal and points.
pub const PHYSICS_CONTACT_TOUCHING: u32 = 1;

/// One rigid body as the GPU holds it (`PhysicsBody` in the WGSL), 112 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GpuPhysicsBody {
    /// The pose's position; w: the inverse mass (0: the body never moves).
    pub position: [f32; 4],
    /// The pose's rotation, xyzw.
    pub rotation: [f32; 4],
    /// Velocity of the centre of mass; w unused.
    pub velocity: [f32; 4],
    /// Angular velocity, world frame; w: seconds the body has been calm.
    pub spin: [f32; 4],
    /// The centre of mass in the shape's local frame; w unused.
    pub centre: [f32; 4],
    /// The inverse inertia about the centre of mass, diagonal in the shape's local axes; w unused.
    pub inverse_inertia: [f32; 4],
    /// x: the shape's index, y: flags ([`PHYSICS_BODY_ASLEEP`]), z and w unused.
    pub info: [u32; 4],
}

impl GpuPhysicsBody {
    /// The GPU record of `body`. Its inverse inertia must be diagonal in the shape's local axes, as
    /// [`RigidBody::new`] makes it (the inertia of the shape's local box).
    pub fn from_body(body: &RigidBody) -> Self {
        let inertia = body.inverse_inertia_local;
        Self {
            position: body.pose.position.extend(body.inverse_mass).to_array(),
            rotation: body.pose.rotation.to_array(),
            velocity: body.velocity.extend(0.0).to_array(),
            spin: body.angular.extend(body.calm_for).to_array(),
            centre: body.centre.extend(0.0).to_array(),
            inverse_inertia: [inertia.x_axis.x, inertia.y_axis.y, inertia.z_axis.z, 0.0],
            info: [
                body.shape,
                u32::from(body.asleep) * PHYSICS_BODY_ASLEEP,
                0,
                0,
            ],
        }
    }

    /// `body` with the pose, velocities and sleep state of this record (what the GPU changes).
    pub fn update(&self, body: &mut RigidBody) {
        body.pose.position = Vec3::from_slice(&self.position[..3]);
        body.pose.rotation = Quat::from_array(self.rotation);
        body.velocity = Vec3::from_slice(&self.velocity[..3]);
        body.angular = Vec3::from_slice(&self.spin[..3]);
        body.calm_for = self.spin[3];
        body.asleep = self.info[1] & PHYSICS_BODY_ASLEEP != 0;
    }
}

/// The contact of one broad-phase pair slot (`PhysicsContact` in the WGSL), 128 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GpuPhysicsContact {
    /// Body indices x and y, the point count (0: no contact), the status ([`PHYSICS_CONTACT_NONE`],
    /// [`PHYSICS_CONTACT_TOUCHING`] or a failure code).
    pub bodies: [u32; 4],
    /// The world unit normal from body x towards body y; w: the deepest point's depth.
    pub normal: [f32; 4],
    /// Each point halfway between the two surfaces, world coordinates, with its depth in w; in the order of
    /// their feature ids.
    pub points: [[f32; 4]; 4],
    /// The points' feature ids (`FeatureId::packed`), low word then high word: points 0 and 1, then 2 and 3.
    pub ids: [[u32; 4]; 2],
}

impl GpuPhysicsContact {
    /// How many points the record holds (at most 4).
    pub fn point_count(&self) -> usize {
        (self.bodies[2] as usize).min(4)
    }

    /// Point `k`'s feature id.
    pub fn id(&self, k: usize) -> u64 {
        let words = &self.ids[k / 2];
        let (lo, hi) = (words[2 * (k % 2)], words[2 * (k % 2) + 1]);
        u64::from(lo) | (u64::from(hi) << 32)
    }

    /// The record of a body-pair contact (the CPU's, [`crate::physics::collide::pair_contact`]): its first four
    /// points in their order, the deepest depth with the normal. `None` for a contact with a plane.
    pub fn from_contact(contact: &Contact) -> Option<Self> {
        let Partner::Body(j) = contact.key.b else {
            return None;
        };
        let points = &contact.points[..contact.points.len().min(4)];
        let deepest = points.iter().map(|p| p.depth).fold(f32::MIN, f32::max);
        let mut record = Self {
            bodies: [
                contact.key.a,
                j,
                points.len() as u32,
                PHYSICS_CONTACT_TOUCHING,
            ],
            normal: contact.normal.extend(deepest).to_array(),
            ..Self::default()
        };
        for (k, p) in points.iter().enumerate() {
            record.points[k] = p.position.extend(p.depth).to_array();
            record.set_id(k, p.id);
        }
        Some(record)
    }

    /// The record as the CPU's contact of its bodies (no impulses), `None` where it holds no points.
    pub fn contact(&self) -> Option<Contact> {
        let count = self.point_count();
        if count == 0 {
            return None;
        }
        Some(Contact {
            key: ContactKey {
                a: self.bodies[0],
                b: Partner::Body(self.bodies[1]),
            },
            normal: Vec3::from_slice(&self.normal[..3]),
            points: (0..count)
                .map(|k| {
                    let p = self.points[k];
                    SolverPoint::new(Vec3::from_slice(&p[..3]), p[3], self.id(k))
                })
                .collect(),
        })
    }

    /// Sets point `k`'s feature id.
    pub fn set_id(&mut self, k: usize, id: u64) {
        let words = &mut self.ids[k / 2];
        words[2 * (k % 2)] = id as u32;
        words[2 * (k % 2) + 1] = (id >> 32) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn records_have_the_sizes_the_wgsl_reads() {
        assert_eq!(size_of::<GpuPhysicsBody>(), 112);
        assert_eq!(size_of::<GpuPhysicsContact>(), 128);
    }

    #[test]
    fn a_body_pair_contact_round_trips_through_its_record_and_a_plane_contact_has_none() {
        let points = [
            (Vec3::new(1.0, 2.0, 3.0), 0.01, 7),
            (Vec3::X, 0.03, 1 << 40),
        ]
        .map(|(p, depth, id)| SolverPoint::new(p, depth, id))
        .to_vec();
        let contact = Contact {
            key: ContactKey {
                a: 3,
                b: Partner::Body(9),
            },
            normal: Vec3::Y,
            points,
        };
        let record = GpuPhysicsContact::from_contact(&contact).unwrap();
        assert_eq!(record.bodies, [3, 9, 2, PHYSICS_CONTACT_TOUCHING]);
        assert_eq!(record.normal, [0.0, 1.0, 0.0, 0.03]);
        assert_eq!(record.contact(), Some(contact.clone()));
        let plane = Contact {
            key: ContactKey {
                a: 3,
                b: Partner::Plane(0),
            },
            ..contact
        };
        assert_eq!(GpuPhysicsContact::from_contact(&plane), None);
        assert_eq!(GpuPhysicsContact::default().contact(), None);
    }

    #[test]
    fn feature_ids_round_trip_through_the_words() {
        let mut c = GpuPhysicsContact::default();
        let ids = [u64::MAX, 1 << 40 | 7, 0, 0x8000_0001_0000_0002];
        for (k, id) in ids.iter().enumerate() {
            c.set_id(k, *id);
        }
        for (k, id) in ids.iter().enumerate() {
            assert_eq!(c.id(k), *id, "point {k}");
        }
    }
}
