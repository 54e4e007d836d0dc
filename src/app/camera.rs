//! A free-flying first-person camera: position plus yaw and pitch, Y up, right-handed.

use glam::camera::rh;
use glam::{Mat4, Vec3};

/// Radians turned per pixel of mouse motion.
const TURN_PER_PIXEL: f32 = 0.003;
/// Each mouse-wheel step towards the target leaves this fraction of the distance.
const ZOOM_PER_STEP: f32 = 0.85;
const MAX_PITCH: f32 = 89.0 * std::f32::consts::PI / 180.0;

/// Yaw 0 looks along -Z; positive yaw turns towards +X. Pitch is positive looking up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub position: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    pub near: f32,
    pub far: f32,
}

impl Camera {
    /// A camera at `eye` facing `target`, with a 60 degree field of view. The clip planes scale with the
    /// distance so a scene of ~100 units around the target stays in range while the camera flies about.
    pub fn looking_at(eye: Vec3, target: Vec3) -> Self {
        let offset = target - eye;
        let distance = offset.length();
        let dir = offset.try_normalize().unwrap_or(Vec3::NEG_Z);
        let pitch = dir.y.clamp(-1.0, 1.0).asin().clamp(-MAX_PITCH, MAX_PITCH);
        let yaw = dir.x.atan2(-dir.z);
        Self {
            position: eye,
            yaw,
            pitch,
            fov_y: 60f32.to_radians(),
            near: (distance * 0.002).clamp(0.01, 0.5),
            far: (distance * 20.0).max(1000.0),
        }
    }

    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cp * sy, sp, -cp * cy)
    }

    /// Horizontal, so strafing never changes height.
    pub fn right(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        Vec3::new(cy, 0.0, sy)
    }

    /// Moves by world-space distances along the view direction, the horizontal right and world up.
    pub fn move_local(&mut self, forward: f32, right: f32, up: f32) {
        self.position += self.forward() * forward + self.right() * right + Vec3::Y * up;
    }

    /// Mouse look: moving the mouse right turns right, moving it down (screen y grows) looks down.
    pub fn turn(&mut self, dx_pixels: f32, dy_pixels: f32) {
        let yaw = self.yaw + dx_pixels * TURN_PER_PIXEL;
        self.yaw =
            (yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        self.pitch = (self.pitch - dy_pixels * TURN_PER_PIXEL).clamp(-MAX_PITCH, MAX_PITCH);
    }

    /// Turns the camera about `target`, keeping its distance: mouse right moves the camera left around it
    /// (the scene turns with the mouse), mouse down moves it up.
    pub fn orbit(&mut self, target: Vec3, dx_pixels: f32, dy_pixels: f32) {
        let distance = self.position.distance(target);
        self.turn(dx_pixels, dy_pixels);
        self.position = target - self.forward() * distance;
    }

    /// Moves towards (positive `steps`) or away from `target` by a fraction of the distance per step, never
    /// closer than `min_distance`. Without a target, moves along the view by `fallback_step` per step.
    pub fn zoom(
        &mut self,
        steps: f32,
        target: Option<Vec3>,
        min_distance: f32,
        fallback_step: f32,
    ) {
        match target {
            Some(target) => {
                let distance = self.position.distance(target);
                let wanted = (distance * ZOOM_PER_STEP.powf(steps)).max(min_distance);
                let dir = (target - self.position)
                    .try_normalize()
                    .unwrap_or(self.forward());
                self.position = target - dir * wanted;
            }
            None => self.position += self.forward() * steps * fallback_step,
        }
        self.fit_clip_planes(target.map_or(fallback_step * 10.0, |t| self.position.distance(t)));
    }

    /// Where the camera must stand, keeping its direction, to see a sphere of `radius` about `centre`.
    pub fn framing(&self, centre: Vec3, radius: f32, aspect: f32) -> Vec3 {
        let half = 0.5 * self.fov_y.min(self.fov_y * aspect.min(1.0));
        let distance = radius.max(1e-3) / half.sin().max(1e-3);
        centre - self.forward() * distance
    }

    /// Clip planes that suit looking at things `distance` away.
    pub fn fit_clip_planes(&mut self, distance: f32) {
        self.near = (distance * 0.002).clamp(1e-4, 0.5);
        self.far = (distance * 20.0).max(1000.0);
    }

    pub fn view(&self) -> Mat4 {
        rh::view::look_to_mat4(self.position, self.forward(), Vec3::Y)
    }

    /// Right-handed projection with wgpu's 0..1 depth range.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        // Direct3D's convention (depth 0..1, Y up) is wgpu's.
        rh::proj::directx::perspective(self.fov_y, aspect, self.near, self.far) * self.view()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn looking_at_faces_the_target() {
        let eye = Vec3::new(30.0, 20.0, 80.0);
        let target = Vec3::new(-5.0, 1.0, 2.0);
        let camera = Camera::looking_at(eye, target);
        assert!(close(camera.forward(), (target - eye).normalize()));
        assert!(camera.right().dot(camera.forward()).abs() < 1e-6);
        assert!(camera.right().cross(camera.forward()).y > 0.0, "Y is up");
        assert!(camera.far > 200.0 && camera.near > 0.0 && camera.near < 1.0);
    }

    #[test]
    fn looking_at_itself_still_gives_a_usable_camera() {
        let camera = Camera::looking_at(Vec3::ONE, Vec3::ONE);
        assert!(close(camera.forward(), Vec3::NEG_Z));
        assert!(camera.view_proj(1.5).is_finite());
    }

    #[test]
    fn turn_clamps_pitch_and_turns_the_right_way() {
        let mut camera = Camera::looking_at(Vec3::ZERO, Vec3::NEG_Z);
        camera.turn(0.0, -1e6);
        assert!((camera.pitch - 89f32.to_radians()).abs() < 1e-5);
        camera.turn(0.0, 1e6);
        assert!((camera.pitch + 89f32.to_radians()).abs() < 1e-5);

        let mut camera = Camera::looking_at(Vec3::ZERO, Vec3::NEG_Z);
        camera.turn(100.0, 0.0);
        assert!(camera.forward().x > 0.0, "mouse right turns right");
        camera.turn(0.0, 100.0);
        assert!(camera.forward().y < 0.0, "mouse down looks down");
        camera.turn(1e5, 0.0);
        assert!(camera.yaw.abs() <= std::f32::consts::PI);
    }

    #[test]
    fn orbit_keeps_the_target_in_view_at_the_same_distance() {
        let target = Vec3::new(1.0, 2.0, 3.0);
        let mut camera = Camera::looking_at(Vec3::new(1.0, 2.0, 13.0), target);
        camera.orbit(target, 200.0, -80.0);
        assert!((camera.position.distance(target) - 10.0).abs() < 1e-4);
        assert!(close(
            camera.forward(),
            (target - camera.position).normalize()
        ));
        assert!(
            camera.position.x < 1.0,
            "the camera went left as the mouse went right"
        );
    }

    #[test]
    fn zoom_approaches_the_target_and_framing_fits_the_sphere() {
        let target = Vec3::ZERO;
        let mut camera = Camera::looking_at(Vec3::new(0.0, 0.0, 10.0), target);
        camera.zoom(1.0, Some(target), 0.1, 1.0);
        assert!((camera.position.length() - 8.5).abs() < 1e-4);
        camera.zoom(100.0, Some(target), 0.1, 1.0);
        assert!(
            (camera.position.length() - 0.1).abs() < 1e-5,
            "not closer than the minimum"
        );
        camera.zoom(-2.0, None, 0.1, 1.0);
        assert!(
            (camera.position.z - 2.1).abs() < 1e-4,
            "no target: along the view"
        );
        let eye = camera.framing(Vec3::new(5.0, 0.0, 0.0), 2.0, 16.0 / 9.0);
        let framed = Camera {
            position: eye,
            ..camera
        };
        let vp = framed.view_proj(16.0 / 9.0);
        for p in [
            Vec3::new(7.0, 0.0, 0.0),
            Vec3::new(5.0, 2.0, 0.0),
            Vec3::new(3.0, -2.0, 0.0),
        ] {
            let clip = vp * p.extend(1.0);
            assert!(
                (clip.truncate() / clip.w).abs().max_element() <= 1.0,
                "{p} outside the view"
            );
        }
    }

    #[test]
    fn move_local_follows_the_view() {
        let mut camera = Camera::looking_at(Vec3::ZERO, Vec3::X);
        camera.move_local(2.0, 1.0, 3.0);
        assert!(close(camera.position, Vec3::new(2.0, 3.0, 1.0)));
    }

    #[test]
    fn a_point_in_front_projects_inside_clip_space() {
        let camera = Camera::looking_at(Vec3::new(10.0, 5.0, 10.0), Vec3::ZERO);
        let vp = camera.view_proj(16.0 / 9.0);
        let inside = |p: Vec3| {
            let clip = vp * p.extend(1.0);
            let ndc = clip.truncate() / clip.w;
            clip.w > 0.0 && ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && (0.0..=1.0).contains(&ndc.z)
        };
        assert!(inside(Vec3::ZERO));
        assert!(inside(Vec3::new(1.0, -1.0, 0.5)));
        assert!(!inside(Vec3::new(20.0, 10.0, 20.0)), "behind the camera");
        let centre = vp * Vec3::ZERO.extend(1.0);
        assert!((centre.x / centre.w).abs() < 1e-5 && (centre.y / centre.w).abs() < 1e-5);
    }
}
