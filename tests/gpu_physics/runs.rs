//! Whole runs: the same run bit for bit whatever order the slots list the pairs in, and warm starting that
//! carries the impulses from step to step.

use crate::harness::Harness;
use crate::on_every_backend;
use gpu_gjk::physics::scenes::{pile, stack};

/// A 40-body pile for a second, its slots listed in the order `order` gives; the bodies' records and the
/// kinetic energy of each step.
fn run(ctx: &gpu_gjk::gpu::GpuContext, order: usize) -> (Vec<[u32; 28]>, Vec<f32>) {
    let mut h = Harness::new(ctx, pile(40, 3));
    h.order = order;
    let energy = h.run(60);
    let bodies = h.solver.read_bodies().expect("the bodies read back");
    (bodies.iter().map(|b| bytemuck::cast(*b)).collect(), energy)
}

/// The velocity sums are fixed-point integers, whose sums do not depend on the order the contacts arrive in:
/// the same pairs listed in other slots give the same run, to the bit.
#[test]
fn the_same_bodies_give_the_same_run_bit_for_bit_in_any_slot_order() {
    on_every_backend(|name, ctx| {
        let (bodies, energy) = run(ctx, 0);
        let again = run(ctx, 0);
        let shuffled = run(ctx, 17);
        assert!(energy.iter().any(|&e| e > 0.0), "{name}: the pile moved");
        assert_eq!(
            (&bodies, &energy),
            (&again.0, &again.1),
            "{name}: run twice"
        );
        assert_eq!(
            (&bodies, &energy),
            (&shuffled.0, &shuffled.1),
            "{name}: slots reordered"
        );
    });
}

/// A stack of ten, awake, for three seconds: how far the top box sank, and the last step's warm-started and
/// total points.
fn stack_run(ctx: &gpu_gjk::gpu::GpuContext, warm_start: bool) -> (f32, u32, u32) {
    let mut world = stack(10);
    world.settings.sleep_speed = 0.0;
    world.settings.warm_start = warm_start;
    let start = world.bodies[9].pose.position.y;
    let mut h = Harness::new(ctx, world);
    let mut last = h.step();
    for _ in 1..180 {
        last = h.step();
    }
    let down = start - h.world.bodies[9].pose.position.y;
    (down, last.warm_started, last.points)
}

/// Resting points start from the last step's impulses (matched through the pair table although the slots
/// change order every step); without them the Jacobi iterations cannot hold the stack's weight, and it sinks.
#[test]
fn warm_starting_carries_the_impulses_that_hold_a_stack() {
    on_every_backend(|name, ctx| {
        let (down, warm, points) = stack_run(ctx, true);
        let (cold_down, cold_warm, _) = stack_run(ctx, false);
        eprintln!("{name}: warm start: sank {down}, {warm} of {points} points warm; cold: sank {cold_down}");
        assert_eq!(warm, points, "{name}: every resting point carried");
        assert_eq!(cold_warm, 0, "{name}");
        assert!(down < 0.05, "{name}: sank {down} with warm starting");
        assert!(
            cold_down > 2.0 * down,
            "{name}: sank {cold_down} without, {down} with"
        );
    });
}
