//! The world: shapes, bodies, static planes, gravity and the fixed time step that moves them.

use super::body::RigidBody;
use super::collide::find_contacts;
use super::contact::{Contact, ContactKey};
use super::planes::Plane;
use super::solver::{iterate, iterate_push, prepare, warm_start, Motion, SolverSettings};
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::Vec3;
use std::collections::HashMap;

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    /// Candidate pairs from the broad phase.
    pub candidate_pairs: usize,
    /// Contacts (body pairs and body-plane pairs that touch).
    pub contacts: usize,
    /// Contact points over all contacts.
    pub points: usize,
    /// Bodies asleep after the step.
    pub asleep: usize,
    /// Points that started from the last step's impulses.
    pub warm_started: usize,
    /// Largest overlap of any point.
    pub max_depth: f32,
    /// Kinetic energy of every body after the step.
    pub kinetic_energy: f32,
}

/// Rigid bodies under gravity between static planes, advanced by [`World::step`].
#[derive(Clone, Debug)]
pub struct World {
    pub shapes: Vec<ConvexShape>,
    pub bodies: Vec<RigidBody>,
    pub planes: Vec<Plane>,
    pub gravity: Vec3,
    pub settings: SolverSettings,
    /// The fixed time step, in seconds.
    pub dt: f32,
    /// The last step's contacts, with their accumulated impulses (the next step's warm start).
    pub contacts: Vec<Contact>,
}

impl World {
    /// A world of `shapes` with no bodies yet, no planes, gravity 9.81 down Y, 60 steps a second.
    pub fn new(shapes: Vec<ConvexShape>) -> Self {
        Self {
            shapes,
            bodies: Vec::new(),
            planes: Vec::new(),
            gravity: Vec3::new(0.0, -9.81, 0.0),
            settings: SolverSettings::default(),
            dt: 1.0 / 60.0,
            contacts: Vec::new(),
        }
    }

    /// Adds a body of shape `shape` at `pose` with density 1; returns its index. Panics on a shape index out of
    /// range.
    pub fn add_body(&mut self, shape: usize, pose: Pose) -> usize {
        let body = RigidBody::new(shape as u32, &self.shapes[shape], pose, 1.0);
        self.bodies.push(body);
        self.bodies.len() - 1
    }

    /// Adds a floor at height `floor` and four walls around `[-half_width, half_width]` in X and Z.
    pub fn enclose(&mut self, floor: f32, half_width: f32) {
        self.planes.push(Plane::floor(floor));
        self.planes.extend(Plane::walls(half_width));
    }

    /// Total kinetic energy.
    pub fn kinetic_energy(&self) -> f32 {
        self.bodies.iter().map(RigidBody::kinetic_energy).sum()
    }

    /// Advances the world by one fixed step: gravity into the velocities, the contacts found and
    /// warm-started, the solver's iterations, then the poses moved by the velocities.
    pub fn step(&mut self) -> StepStats {
        let dt = self.dt;
        // Before the contacts are found, so that a body woken now gets all of them.
        wake_touched(&mut self.bodies, &self.contacts, self.settings.sleep_speed);
        for body in &mut self.bodies {
            if body.moves() {
                body.velocity += self.gravity * dt;
            }
        }
        let found = find_contacts(&self.shapes, &self.bodies, &self.planes, self.settings.slop);
        let mut contacts = found.contacts;

        let warm_started = if self.settings.warm_start {
            carry_impulses(&self.contacts, &mut contacts)
        } else {
            0
        };
        let mut motions: Vec<Motion> = self.bodies.iter().map(Motion::of).collect();
        prepare(&mut contacts, &self.bodies, &motions, &self.settings, dt);
        if self.settings.warm_start {
            warm_start(&contacts, &mut motions);
        }
        for _ in 0..self.settings.iterations {
            iterate(&mut contacts, &mut motions, self.settings.friction);
        }
        let mut push: Vec<Motion> = motions
            .iter()
            .map(|m| Motion {
                velocity: Vec3::ZERO,
                angular: Vec3::ZERO,
                ..*m
            })
            .collect();
        for _ in 0..self.settings.iterations {
            iterate_push(&mut contacts, &mut push);
        }
        let sleep = (self.settings.sleep_speed, self.settings.sleep_time);
        for ((body, motion), push) in self.bodies.iter_mut().zip(&motions).zip(&push) {
            if body.moves() {
                body.velocity = motion.velocity;
                body.angular = motion.angular;
                body.integrate(dt, push.velocity, push.angular);
                settle(body, sleep, dt);
            }
        }
        let stats = StepStats {
            candidate_pairs: found.candidate_pairs,
            contacts: contacts.len(),
            points: contacts.iter().map(|c| c.points.len()).sum(),
            warm_started,
            max_depth: contacts
                .iter()
                .flat_map(|c| &c.points)
                .map(|p| p.depth)
                .fold(0.0, f32::max),
            kinetic_energy: self.kinetic_energy(),
            asleep: self.bodies.iter().filter(|b| b.asleep).count(),
        };
        self.contacts = contacts;
        stats
    }
}

/// Copies the accumulated impulses of each point of `previous` to the point of `current` with the same contact
/// key and feature id; returns how many points were matched.
fn carry_impulses(previous: &[Contact], current: &mut [Contact]) -> usize {
    let index: HashMap<ContactKey, &Contact> = previous.iter().map(|c| (c.key, c)).collect();
    let mut matched = 0;
    for contact in current {
        let Some(old) = index.get(&contact.key) else {
            continue;
        };
        for point in &mut contact.points {
            if let Some(o) = old.points.iter().find(|o| o.id == point.id) {
                point.normal_impulse = o.normal_impulse;
                point.tangent_impulse = o.tangent_impulse;
                matched += 1;
            }
        }
    }
    matched
}

/// Counts how long `body` has been calm and puts it to sleep after `sleep_time` (`sleep` is the settings'
/// speed and time; a speed of 0 never sleeps).
fn settle(body: &mut RigidBody, (speed, time): (f32, f32), dt: f32) {
    if speed <= 0.0 {
        return;
    }
    if body.velocity.length() < speed && body.angular.length() < speed {
        body.calm_for += dt;
    } else {
        body.calm_for = 0.0;
    }
    if body.calm_for >= time {
        body.asleep = true;
        body.velocity = Vec3::ZERO;
        body.angular = Vec3::ZERO;
    }
}

/// Wakes every sleeping body that touches an awake body moving faster than the sleep speed (and, in turn, the
/// sleepers it touches, until no more wake).
fn wake_touched(bodies: &mut [RigidBody], contacts: &[Contact], speed: f32) {
    let moving =
        |b: &RigidBody| b.moves() && (b.velocity.length() >= speed || b.angular.length() >= speed);
    loop {
        let mut woke = false;
        for contact in contacts {
            let super::contact::Partner::Body(j) = contact.key.b else {
                continue;
            };
            let (i, j) = (contact.key.a as usize, j as usize);
            for (sleeper, other) in [(i, j), (j, i)] {
                if bodies[sleeper].asleep && moving(&bodies[other]) {
                    bodies[sleeper].asleep = false;
                    bodies[sleeper].calm_for = 0.0;
                    woke = true;
                }
            }
        }
        if !woke {
            return;
        }
    }
}
