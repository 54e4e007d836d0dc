//! The stress test's collision responses (R cycles them, `--response` picks one): none, the push-apart pass
//! ([`crate::stress::separate`]), or rigid-body physics ([`gpu_gjk::physics`]): gravity, a floor at the bottom
//! of the scene's box and walls at its sides, contacts from the crate's manifolds. Physics runs on the GPU
//! ([`gpu_gjk::gpu::physics::GpuWorld`]) where the scene's bodies are on the GPU, with the CPU manifold checking
//! a sample of its contacts each frame, and on the CPU otherwise.

use crate::stress::{ResponseStats, StressScene};
use glam::Vec3;
use gpu_gjk::gpu::physics::layout::GpuPhysicsContact;
use gpu_gjk::gpu::physics::{check_contacts, contact_proxy, GpuWorld};
use gpu_gjk::physics::{RigidBody, World};
use gpu_gjk::ConvexShape;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;

/// Physics steps per second (the solver's fixed step).
const STEP_HZ: f32 = 60.0;

/// At most this many steps per frame: a slow frame slows the scene down rather than running ever more steps.
const MAX_STEPS_PER_FRAME: u32 = 4;

/// Contacts of the GPU's first step of a frame that the CPU manifold checks.
pub const CHECKED_CONTACTS_PER_FRAME: usize = 64;

/// What happens to bodies that overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResponseMode {
    /// Bodies pass through each other (the narrow phase only colours them).
    #[default]
    Off,
    /// Overlapping bodies are pushed apart along EPA's normal and bounce.
    PushApart,
    /// Rigid-body physics: gravity, a floor and walls, contact manifolds and sequential impulses.
    Physics,
}

impl ResponseMode {
    /// The next mode in R's cycle: off, push-apart, physics.
    pub fn next(self) -> Self {
        match self {
            ResponseMode::Off => ResponseMode::PushApart,
            ResponseMode::PushApart => ResponseMode::Physics,
            ResponseMode::Physics => ResponseMode::Off,
        }
    }

    /// The name `--response` takes and the HUD shows.
    pub fn label(self) -> &'static str {
        match self {
            ResponseMode::Off => "off",
            ResponseMode::PushApart => "push-apart",
            ResponseMode::Physics => "physics",
        }
    }
}

/// What one frame of physics did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PhysicsStats {
    /// Fixed steps run this frame.
    pub steps: u32,
    /// Contacts (body pairs and bodies against the floor or walls) and their points, in the last step.
    pub contacts: usize,
    pub points: usize,
    /// Bodies asleep after the last step.
    pub asleep: usize,
    pub kinetic_energy: f32,
    pub ms: f64,
    /// Whether the steps ran on the GPU.
    pub on_gpu: bool,
    /// GPU contacts the CPU manifold checked this frame, those it disagreed with, and those the GPU gave up on
    /// (a failure code: the solver leaves them out of the step).
    pub contacts_checked: usize,
    pub contacts_disputed: usize,
    pub contacts_failed: usize,
    /// What physics on the GPU read back this frame (its readbacks: each step's pair count, the checked
    /// contacts, the bodies, the step's statistics), its submissions and the host's waits for them.
    pub bytes_down: u64,
    pub submissions: u32,
    pub blocking_waits: u32,
}

/// The scene's bodies as a physics world, kept from frame to frame (its contacts warm-start the next step).
pub struct StressPhysics {
    /// The world: on the CPU, what steps; with the GPU, its description and the bodies read back each frame.
    world: World,
    /// The world on the GPU, when it runs there.
    gpu: Option<GpuWorld>,
    /// Why the world runs on the CPU where the GPU was offered (a shape its contact pass does not take).
    pub gpu_refused: Option<String>,
    /// Simulated time not yet stepped.
    pending: f32,
    /// Frames stepped, for the check's sample seed.
    frames: u64,
}

impl StressPhysics {
    /// The world of `scene`: its shapes and poses, its bodies' velocities and spins, a floor at the bottom of
    /// its box and walls at its sides. The player's shape (body 0, when there is one) is static: the player
    /// moves it, and the bodies bump into it. On the GPU of `device` when given and it takes the world.
    pub fn new(scene: &StressScene, device: Option<(&wgpu::Device, &wgpu::Queue)>) -> Self {
        let mut world = World::new(scene.shapes.clone());
        world.enclose(-scene.half_extent, scene.half_extent);
        world.dt = 1.0 / STEP_HZ;
        for (k, body) in scene.bodies.iter().enumerate() {
            let mut rigid = RigidBody::new(body.shape, &world.shapes[k], body.pose, 1.0);
            rigid.velocity = body.velocity;
            rigid.angular = body.spin;
            if k == 0 && scene.has_player() {
                rigid = rigid.fixed();
            }
            world.bodies.push(rigid);
        }
        let (gpu, gpu_refused) = match device {
            Some((device, queue)) => {
                // The GPU's contact pass takes hulls of up to 128 faces: bigger meshes step as their proxies.
                let mut proxied = world.clone();
                proxied.shapes = gpu_shapes(scene);
                match GpuWorld::new(device, queue, &proxied) {
                    Ok(gpu) => {
                        world = proxied;
                        (Some(gpu), None)
                    }
                    Err(e) => (None, Some(e.to_string())),
                }
            }
            None => (None, None),
        };
        Self {
            world,
            gpu,
            gpu_refused,
            pending: 0.0,
            frames: 0,
        }
    }

    /// Whether this world still matches the scene's bodies (the count changes with + and -).
    pub fn matches(&self, scene: &StressScene) -> bool {
        self.world.bodies.len() == scene.bodies.len()
    }

    /// The GPU's body buffer, while the world runs on the GPU: what the stress bodies take their poses from.
    pub fn gpu_bodies(&self) -> Option<&wgpu::Buffer> {
        self.gpu.as_ref().map(GpuWorld::bodies)
    }

    /// Advances the world by `dt` seconds in fixed steps (at most [`MAX_STEPS_PER_FRAME`]) and writes the poses
    /// and velocities back into the scene.
    pub fn step(&mut self, scene: &mut StressScene, dt: f32) -> anyhow::Result<PhysicsStats> {
        let start = Instant::now();
        if scene.has_player() {
            if let (Some(player), Some(body)) =
                (self.world.bodies.first_mut(), scene.bodies.first())
            {
                player.pose = body.pose;
            }
        }
        self.pending = (self.pending + dt).min(MAX_STEPS_PER_FRAME as f32 * self.world.dt);
        let mut stats = PhysicsStats::default();
        if self.gpu.is_some() {
            self.step_on_gpu(scene, &mut stats)?;
        } else {
            while self.pending >= self.world.dt * 0.999 {
                self.pending -= self.world.dt;
                let step = self.world.step();
                stats.steps += 1;
                stats.contacts = step.contacts;
                stats.points = step.points;
                stats.asleep = step.asleep;
            }
        }
        stats.kinetic_energy = self.world.kinetic_energy();
        for (body, rigid) in scene.bodies.iter_mut().zip(&self.world.bodies) {
            body.pose = rigid.pose;
            body.velocity = rigid.velocity;
            body.spin = rigid.angular;
        }
        stats.ms = start.elapsed().as_secs_f64() * 1e3;
        Ok(stats)
    }

    /// The frame's steps on the GPU. The first step's contacts are checked against the CPU manifold on the
    /// poses it found them at (the bodies read back last frame), before a later step overwrites them; the
    /// bodies come back once, after the last step, for the host scene (picking, the inspector, the HUD).
    fn step_on_gpu(&mut self, scene: &StressScene, stats: &mut PhysicsStats) -> anyhow::Result<()> {
        let gpu = self.gpu.as_mut().expect("checked by the caller");
        stats.on_gpu = true;
        if scene.has_player() {
            if let Some(player) = self.world.bodies.first() {
                gpu.write_body(0, player)?;
            }
        }
        while self.pending >= self.world.dt * 0.999 {
            self.pending -= self.world.dt;
            gpu.step()?;
            stats.steps += 1;
            if stats.steps == 1 {
                self.frames += 1;
                let sample = gpu.read_sample(CHECKED_CONTACTS_PER_FRAME, self.frames)?;
                let check = check_contacts(&self.world.shapes, &self.world.bodies, &sample);
                stats.contacts_checked = check.checked;
                stats.contacts_disputed = check.disagreements;
                stats.contacts_failed = check.failures;
                for line in &check.described {
                    eprintln!("a GPU physics contact the CPU manifold disputes: {line}");
                }
                // The overlay draws the contacts the CPU checked.
                self.world.contacts = sample
                    .iter()
                    .filter_map(GpuPhysicsContact::contact)
                    .collect();
            }
        }
        if stats.steps > 0 {
            self.world.bodies = gpu.read_bodies()?;
            let step = gpu.latest_stats()?;
            stats.contacts = step.contacts as usize;
            stats.points = step.points as usize;
        }
        stats.asleep = self.world.bodies.iter().filter(|b| b.asleep).count();
        let traffic = gpu.take_traffic();
        stats.bytes_down = traffic.bytes_down;
        stats.submissions = traffic.submissions;
        stats.blocking_waits = traffic.blocking_waits;
        Ok(())
    }

    /// The world (its last step's contacts are what the contact overlay draws).
    pub fn world(&self) -> &World {
        &self.world
    }
}

/// The shapes physics on the GPU steps: each body's own, or, for a mesh of more faces than the GPU's contact pass
/// takes, its template's contact proxy ([`contact_proxy`]) scaled as the body's mesh is. One proxy per template:
/// each body's shape is its template scaled ([`StressScene`]).
fn gpu_shapes(scene: &StressScene) -> Vec<ConvexShape> {
    // Per template: the first body of it, and its proxy's points where it needs one.
    let mut proxies: HashMap<usize, (usize, Option<Vec<Vec3>>)> = HashMap::new();
    let scale = |k: usize| scene.scales.get(k).copied().unwrap_or(1.0);
    scene
        .shapes
        .iter()
        .enumerate()
        .map(|(k, shape)| {
            let template = scene.templates.get(k).copied().unwrap_or(k);
            let (first, points) = proxies.entry(template).or_insert_with(|| {
                let proxy = contact_proxy(shape).filter(|p| p != shape);
                (k, proxy.map(|p| p.local_points().collect()))
            });
            let Some(points) = points else {
                return shape.clone();
            };
            let ratio = scale(k) / scale(*first);
            let scaled: Vec<Vec3> = points.iter().map(|p| *p * ratio).collect();
            // A hull the GPU world cannot take is refused there, naming the body's shape.
            ConvexShape::hull(&scaled, 0.0).unwrap_or_else(|_| shape.clone())
        })
        .collect()
}

/// The HUD's response row: the mode and what it did this frame; `gpu_refused`, why physics runs on the CPU
/// where the GPU was offered.
pub fn describe(
    mode: ResponseMode,
    pushed: Option<ResponseStats>,
    physics: Option<PhysicsStats>,
    gpu_refused: Option<&str>,
) -> String {
    let row = describe_stats(mode, pushed, physics);
    match gpu_refused {
        Some(reason) if mode == ResponseMode::Physics => {
            format!("{row} (not on the GPU: {reason})")
        }
        _ => row,
    }
}

fn describe_stats(
    mode: ResponseMode,
    pushed: Option<ResponseStats>,
    physics: Option<PhysicsStats>,
) -> String {
    match (mode, pushed, physics) {
        (ResponseMode::Off, _, _) => "off (R cycles push-apart, physics)".to_string(),
        (ResponseMode::PushApart, Some(r), _) => format!("push-apart, {} pairs pushed", r.pushed),
        (ResponseMode::Physics, _, Some(p)) => format!(
            "physics on the {}, {} contacts, {} points, {} asleep, kinetic energy {:.3}{}",
            if p.on_gpu { "GPU" } else { "CPU" },
            p.contacts,
            p.points,
            p.asleep,
            p.kinetic_energy,
            if p.on_gpu {
                format!(
                    ", {} contacts checked, {} disputed, {} given up",
                    p.contacts_checked, p.contacts_disputed, p.contacts_failed
                )
            } else {
                String::new()
            }
        ),
        (mode, _, _) => mode.label().to_string(),
    }
}
