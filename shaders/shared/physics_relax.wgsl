// The Jacobi iteration over the pair slots, shared by `physics_relax` (real velocities) and
// `physics_relax_push` (the position correction's pseudo-velocities): every manifold reads its bodies' velocities
// as the last `physics_apply` left them, runs Gauss-Seidel over its points with each body's mass split by its
// contact count (mass splitting: a body in n contacts takes part in each with 1/n of its mass, so that the sum
// of the n changes, each divided by n, is a step the body can take without overshooting), and adds each body's
// velocity change, divided by that count, to the body's fixed-point sums. `physics_apply` adds the sums.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<uniform> limit: SlotLimit;
@group(0) @binding(2) var<storage, read> pair_count: array<u32>;
@group(0) @binding(3) var<storage, read_write> manifolds: array<SolverManifold>;
@group(0) @binding(4) var<storage, read> motions: array<Motion>;
@group(0) @binding(5) var<storage, read_write> tallies: array<atomic<i32>>;

// One manifold's Gauss-Seidel pass, on the real velocities (`push` false) or the pseudo-velocities.
fn relax(k: u32, push: bool) {
    if (k >= min(pair_count[0], limit.capacity)) {
        return;
    }
    var m = manifolds[k];
    if (m.bodies.w == 0u) {
        return;
    }
    let ma = motions[m.bodies.x];
    let mb = motions[m.bodies.y];
    var a = body_side(ma, push, ma.angular.w);
    var b = body_side(mb, push, mb.angular.w);
    let start_a = a;
    let start_b = b;
    let normal = m.normal.xyz;
    // Four sweeps over the points, forward and backward in turn: one sweep in a fixed order leaves a bias
    // towards its first points (a turn in the same sense every step) that the Jacobi iterations, slower than
    // Gauss-Seidel, never remove, and more sweeps bring the manifold's own points closer to their solution.
    let count = m.bodies.z;
    for (var j = 0u; j < 4u * count; j++) {
        let sweep = j / count;
        let i = select(j % count, count - 1u - j % count, sweep % 2u == 1u);
        var solved: Solved;
        if (push) {
            solved = solve_push(m.points[i], normal, a, b);
        } else {
            solved = solve_point(m.points[i], normal, a, b, params.friction);
        }
        m.points[i].impulse = solved.impulse;
        a = solved.a;
        b = solved.b;
    }
    manifolds[k].points = m.points;
    tally(m.bodies.x, ma, (a.v - start_a.v) / ma.angular.w, (a.w - start_a.w) / ma.angular.w);
    tally(m.bodies.y, mb, (b.v - start_b.v) / mb.angular.w, (b.w - start_b.w) / mb.angular.w);
}
