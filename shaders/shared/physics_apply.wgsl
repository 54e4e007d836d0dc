// The per-body pass that closes each Jacobi iteration, shared by `physics_apply` (real velocities) and
// `physics_apply_push` (pseudo-velocities): adds the body's fixed-point sums from the pair slots to its
// velocities and clears them, then runs one Gauss-Seidel pass over its plane contacts with its whole mass (a
// body's planes are its own: no other invocation touches them).

@group(0) @binding(0) var<uniform> params: SolverParams;
// The planes, first in the scene buffer (normal, offset).
@group(0) @binding(1) var<storage, read> scene: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> motions: array<Motion>;
@group(0) @binding(3) var<storage, read_write> tallies: array<atomic<i32>>;
@group(0) @binding(4) var<storage, read_write> plane_contacts: array<PlaneContact>;

fn apply(i: u32, push: bool) {
    if (i >= params.body_count) {
        return;
    }
    let base = i * TALLY_WORDS;
    var sums: array<f32, 6>;
    for (var c = 0u; c < 6u; c++) {
        sums[c] = from_fixed(atomicExchange(&tallies[base + c], 0));
    }
    var m = motions[i];
    if (m.velocity.w == 0.0) {
        return;
    }
    var side = body_side(m, push, 1.0);
    side.v += vec3<f32>(sums[0], sums[1], sums[2]);
    side.w += vec3<f32>(sums[3], sums[4], sums[5]);
    let planes = params.plane_count;
    for (var p = 0u; p < planes; p++) {
        var contact = plane_contacts[i * planes + p];
        let normal = -scene[p].xyz;
        for (var k = 0u; k < contact.count; k++) {
            let point = plane_solver_point(contact.points[k], contact.depths[k], normal, side, params);
            var solved: Solved;
            if (push) {
                solved = solve_push(point, normal, side, static_side());
            } else {
                solved = solve_point(point, normal, side, static_side(), params.friction);
            }
            contact.points[k].impulse = solved.impulse;
            side = solved.a;
        }
        if (contact.count > 0u) {
            plane_contacts[i * planes + p] = contact;
        }
    }
    if (push) {
        m.push = vec4<f32>(side.v, m.push.w);
        m.push_angular = vec4<f32>(side.w, 0.0);
    } else {
        m.velocity = vec4<f32>(side.v, m.velocity.w);
        m.angular = vec4<f32>(side.w, m.angular.w);
    }
    motions[i] = m;
}
