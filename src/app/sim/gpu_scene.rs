//! The scene on the GPU for frames fed on the device ([`Simulation::feeds_on_device`]): the bodies are uploaded
//! once from the CPU scene ([`GpuBodies`]) and a compute pass advances them each frame by the CPU scene's rule,
//! writing the broad phase's boxes and the narrow phase's poses on the device. What goes up per frame is the
//! passes' parameters (and the player's shape, 60 bytes, which the host moves), whatever the body count.
//!
//! The CPU scene keeps stepping on the host by the same rule: it is the reference, what the window draws and
//! what picking and the inspector read, and it takes over whenever a frame is not fed on the device (the
//! push-apart response, every answer wanted, `--broad-phase cpu`); the GPU bodies are then dropped, and uploaded
//! again from the CPU scene when frames go back to the device. With physics on the GPU the bodies take the poses
//! its step found instead of moving by the rule, and the CPU scene gets them back once a frame. The sampled check gets the poses of its pairs' bodies with
//! the sample ([`crate::gpu::PairEntry`]), so it checks the answers on the poses the GPU answered.

use super::{draw_slots, BroadTraffic, FrameStats, Simulation};
use crate::gpu::stress_motion::GpuBodies;
use crate::instance::Instance;
use anyhow::{Context, Result};

impl Simulation {
    /// Makes sure the bodies are on the GPU for a frame fed on the device: uploaded from the CPU scene when they
    /// are not (the first such frame, after the shapes or the body count changed, after frames on the host).
    /// The step the GPU's bodies still have to take this frame: `dt`, or 0 when they were just uploaded from
    /// the CPU scene, which has taken it. `None` when the GPU cannot hold them this way (the frame then sends
    /// its boxes and poses up).
    pub(super) fn ensure_gpu_bodies(
        &mut self,
        instances: &[Instance],
        dt: f32,
        stats: &mut FrameStats,
    ) -> Result<Option<f32>> {
        if !self.gpu_scene {
            return Ok(None);
        }
        if self
            .gpu_bodies
            .as_ref()
            .is_some_and(|b| b.count() == self.scene.bodies.len())
        {
            return Ok(Some(dt));
        }
        self.gpu_bodies = None;
        let Some((device, queue)) = self.broad.device_queue() else {
            return Ok(None);
        };
        let slots = draw_slots(&self.scene.templates);
        let Ok(bodies) = GpuBodies::new(device, queue, &self.scene, &slots) else {
            return Ok(None);
        };
        // The instance records' hull words, once; the pass then writes only their poses.
        self.gpu
            .set_instances(instances)
            .context("uploading the bodies' instances to the GPU")?;
        if self.gpu.resident_instance_buffer().is_none() {
            return Ok(None);
        }
        stats.bytes_up += bodies.upload_bytes();
        self.gpu_bodies = Some(bodies);
        Ok(Some(0.0))
    }

    /// Submits the frame's motion pass and broad phase on the GPU's bodies, moved by `dt` seconds, without
    /// waiting; the player's shape, which the host moves, is sent up first. `None` when the bodies are not on
    /// the GPU.
    pub(super) fn run_broad_on_gpu_bodies(&mut self, dt: f32) -> Result<Option<BroadTraffic>> {
        let (Some(bodies), Some(instances)) = (
            self.gpu_bodies.as_ref(),
            self.gpu.resident_instance_buffer(),
        ) else {
            return Ok(None);
        };
        let mut player_bytes = 0;
        if self.scene.has_player() {
            player_bytes = bodies
                .write_body(&self.scene, 0)
                .context("sending the player's shape up")?;
        }
        let instances = instances.clone();
        let timer = self.scene_pass_times.as_ref();
        // With physics on the GPU the bodies take the poses it found, and the motion pass only writes them out.
        let physics = self.physics.as_ref().and_then(|p| p.gpu_bodies()).cloned();
        let run =
            self.broad
                .submit_on_device_boxes(&bodies.grid_fit(), bodies.count(), |boxes, e| {
                    let motion = timer.map(|t| t.writes(0));
                    match &physics {
                        Some(physics) => {
                            bodies.encode_take_physics(physics, e);
                            bodies.encode_timed(0.0, &instances, boxes, e, motion)
                        }
                        None => bodies.encode_timed(dt, &instances, boxes, e, motion),
                    }
                })?;
        self.scene_passes_timed = run.is_some() && timer.is_some();
        Ok(run.map(|mut traffic| {
            traffic.bytes_up += player_bytes;
            if let Some(timer) = timer {
                // Resolved after the passes, in a submission of its own; read back with a checked frame.
                timer.submit_resolve();
                traffic.submissions += 1;
            }
            traffic
        }))
    }

    /// When the latest frame ran on the GPU's bodies: records the pass that writes their renderer instances
    /// into `encoder` (nothing per body goes up) and returns those instances with how many bodies each of
    /// `mesh_count` meshes draws (the draw order of [`draw_slots`]). `None` while the CPU scene is drawn.
    pub fn device_body_instances(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        colour: [f32; 4],
        mesh_count: usize,
    ) -> Option<(&wgpu::Buffer, Vec<u32>)> {
        let bodies = self.gpu_bodies.as_ref()?;
        let mut per_mesh = vec![0u32; mesh_count];
        for &template in &self.scene.templates {
            // A body of a mesh the renderer does not have: draw from the host instead.
            *per_mesh.get_mut(template)? += 1;
        }
        bodies.encode_render_instances(colour, encoder);
        Some((bodies.render_instances(), per_mesh))
    }
}
