//! The stress test's collision responses (R cycles them, `--response` picks one): none, the push-apart pass
//! ([`crate::stress::separate`]), or rigid-body physics ([`gpu_gjk::physics`]): gravity, a floor at the bottom
//! of the scene's box and walls at its sides, contacts from the crate's manifolds, on the CPU.

use crate::stress::{ResponseStats, StressScene};
use gpu_gjk::physics::{RigidBody, World};
use serde::Serialize;
use std::time::Instant;

/// Physics steps per second (the solver's fixed step).
const STEP_HZ: f32 = 60.0;

/// At most this many steps per frame: a slow frame slows the scene down rather than running ever more steps.
const MAX_STEPS_PER_FRAME: u32 = 4;

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
}

/// The scene's bodies as a physics world, kept from frame to frame (its contacts warm-start the next step).
pub struct StressPhysics {
    world: World,
    /// Simulated time not yet stepped.
    pending: f32,
}

impl StressPhysics {
    /// The world of `scene`: its shapes and poses, its bodies' velocities and spins, a floor at the bottom of
    /// its box and walls at its sides. The player's shape (body 0, when there is one) is static: the player
    /// moves it, and the bodies bump into it.
    pub fn new(scene: &StressScene) -> Self {
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
        Self {
            world,
            pending: 0.0,
        }
    }

    /// Whether this world still matches the scene's bodies (the count changes with + and -).
    pub fn matches(&self, scene: &StressScene) -> bool {
        self.world.bodies.len() == scene.bodies.len()
    }

    /// Advances the world by `dt` seconds in fixed steps (at most [`MAX_STEPS_PER_FRAME`]) and writes the poses
    /// and velocities back into the scene.
    pub fn step(&mut self, scene: &mut StressScene, dt: f32) -> PhysicsStats {
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
        while self.pending >= self.world.dt * 0.999 {
            self.pending -= self.world.dt;
            let step = self.world.step();
            stats.steps += 1;
            stats.contacts = step.contacts;
            stats.points = step.points;
            stats.asleep = step.asleep;
        }
        stats.kinetic_energy = self.world.kinetic_energy();
        for (body, rigid) in scene.bodies.iter_mut().zip(&self.world.bodies) {
            body.pose = rigid.pose;
            body.velocity = rigid.velocity;
            body.spin = rigid.angular;
        }
        stats.ms = start.elapsed().as_secs_f64() * 1e3;
        stats
    }

    /// The world (its last step's contacts are what the contact overlay draws).
    pub fn world(&self) -> &World {
        &self.world
    }
}

/// The HUD's response row: the mode and what it did this frame.
pub fn describe(
    mode: ResponseMode,
    pushed: Option<ResponseStats>,
    physics: Option<PhysicsStats>,
) -> String {
    match (mode, pushed, physics) {
        (ResponseMode::Off, _, _) => "off (R cycles push-apart, physics)".to_string(),
        (ResponseMode::PushApart, Some(r), _) => format!("push-apart, {} pairs pushed", r.pushed),
        (ResponseMode::Physics, _, Some(p)) => format!(
            "physics, {} contacts, {} points, {} asleep, kinetic energy {:.3}",
            p.contacts, p.points, p.asleep, p.kinetic_energy
        ),
        (mode, _, _) => mode.label().to_string(),
    }
}
