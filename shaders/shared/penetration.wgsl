// The penetration kernels' outputs and the certificate every penetrating answer must pass: the twin of
// src/query/penetration.rs (`penetration_certified`).

// As words. FORMAT_FULL: GJK's GpuResult in `results` and the GpuPenetration in `penetrations`, 12 words each.
// FORMAT_CONTACT: one PackedContact (src/gpu/packed.rs) per pair in `penetrations`, nothing in `results`.
@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> penetrations: array<u32>;
@group(0) @binding(7) var<storage, read_write> queue: EpaQueue;

fn store_penetration_vec3(at: u32, v: vec3<f32>) {
    penetrations[at] = bitcast<u32>(v.x);
    penetrations[at + 1u] = bitcast<u32>(v.y);
    penetrations[at + 2u] = bitcast<u32>(v.z);
}

// Words 0 to 10 but 7 of a GpuPenetration and of a PackedContact: normal, depth, contact_a, contact_b.
fn store_penetration_fields(at: u32, pen: GpuPenetration) {
    store_penetration_vec3(at, pen.normal);
    penetrations[at + 3u] = bitcast<u32>(pen.depth);
    store_penetration_vec3(at + 4u, pen.contact_a);
    store_penetration_vec3(at + 8u, pen.contact_b);
}

// Pass 1's answers for pair `index`: GJK's, and the penetration answer that needs no polytope (or the
// placeholder of a pair queued for EPA). In a PackedContact, a pair GJK found apart (or could not answer) has a
// penetration answer without depth, normal or contacts, so those words keep GJK's distance answer instead.
fn store_pass1_answers(index: u32, gjk: GpuResult, pen: GpuPenetration) {
    let at = index * 12u;
    if (params.format != FORMAT_CONTACT) {
        store_gjk_result(index, gjk);
        store_penetration_fields(at, pen);
        penetrations[at + 7u] = pen.status;
        penetrations[at + 11u] = pen.iterations;
        return;
    }
    if (gjk.status == STATUS_INTERSECTING) {
        store_penetration_fields(at, pen);
    } else {
        store_penetration_vec3(at, gjk.normal);
        penetrations[at + 3u] = bitcast<u32>(gjk.distance);
        store_penetration_vec3(at + 4u, gjk.witness_a);
        store_penetration_vec3(at + 8u, gjk.witness_b);
    }
    penetrations[at + 7u] = status_word(pen.status, pen.iterations);
    penetrations[at + 11u] = status_word(gjk.status, gjk.iterations);
}

// Pass 2's answer for a queued pair; a PackedContact keeps pass 1's GJK status word.
fn store_epa_answer(index: u32, pen: GpuPenetration) {
    let at = index * 12u;
    store_penetration_fields(at, pen);
    if (params.format != FORMAT_CONTACT) {
        penetrations[at + 7u] = pen.status;
        penetrations[at + 11u] = pen.iterations;
        return;
    }
    penetrations[at + 7u] = status_word(pen.status, pen.iterations);
}

// A penetrating answer must be what it claims: a unit normal along which the support functions add up to the
// depth, and contact points that far apart along it; otherwise rounding fooled an earlier check, and the
// answer is PEN_EPA_DEGENERATE.
fn penetration_certified(q: PairQuery, answer: GpuPenetration) -> GpuPenetration {
    if (answer.status != PEN_PENETRATING) {
        return answer;
    }
    let n = answer.normal;
    let a = support_a(q.support, n);
    let b = support_b(q.support, -n);
    let along = dot(a - b, n) + pair_query_margin(q);
    let unit_length = abs(dot(n, n) - 1.0) <= EPA_UNIT_NORMAL_SLACK;
    // The slack less the rounding of these very checks (EPA_CERTIFICATE_ROUNDING_ULPS in src/epa/answer.rs).
    let ones = vec3<f32>(1.0);
    let sizes = dot(abs(a), ones) + dot(abs(b), ones) + dot(abs(answer.contact_a), ones)
        + dot(abs(answer.contact_b), ones) + abs(answer.depth) + pair_query_margin(q);
    let slack = EPA_CERTIFICATE_SLACK * q.scale - EPA_CERTIFICATE_ROUNDING_ULPS * EPSILON * sizes;
    let contacts = answer.contact_a - answer.contact_b - n * answer.depth;
    var checked = answer;
    if (!unit_length || !(abs(along - answer.depth) <= slack) || !(dot(contacts, contacts) <= slack * slack)) {
        checked.status = PEN_EPA_DEGENERATE;
    }
    return checked;
}

// After GJK, the penetration answer that needs no polytope (penetration() in query/penetration.rs and the
// radii-only branch of epa::penetrate): separated, GJK's failures, or cores apart with overlapping radii. A
// pair whose cores overlap goes to the EPA queue, and its answer here stands only if the EPA pass never runs.
fn penetration_after_gjk(q: PairQuery, result: GpuResult, simplex: ptr<function, Simplex>, index: u32) -> GpuPenetration {
    switch (result.status) {
        case STATUS_SEPARATED: {
            return penetration_none(PEN_SEPARATED);
        }
        case STATUS_MAX_ITERATIONS: {
            return penetration_none(PEN_GJK_MAX_ITERATIONS);
        }
        case STATUS_UNRESOLVED: {
            return penetration_none(PEN_GJK_UNRESOLVED);
        }
        case STATUS_INTERSECTING: {
            return penetrate_or_queue(q, result.normal, simplex, index);
        }
        default: {
            return penetration_none(PEN_GPU_LOOP_LIMIT);
        }
    }
}

// Whether GJK's direction `n` (A to B) separates the cores: touching without overlap, the radii's depth alone.
fn cores_apart_along(q: PairQuery, n: vec3<f32>) -> bool {
    return dot(n, n) > 0.0 && dot(support_b(q.support, -n) - support_a(q.support, n), n) >= 0.0;
}

// Cores apart (or touching without overlap along GJK's direction), radii overlapping: the depth is what the radii add beyond the core distance, along GJK's
// direction (epa::penetrate). Cores overlapping: queue the pair for EPA.
fn penetrate_or_queue(q: PairQuery, gjk_normal: vec3<f32>, simplex: ptr<function, Simplex>, index: u32) -> GpuPenetration {
    let cores = simplex_witnesses(simplex);
    let gap = cores.b - cores.a;
    let core_distance = sqrt(dot(gap, gap));
    if (core_distance > pair_query_touch_tolerance(q) || cores_apart_along(q, gjk_normal)) {
        var normal = gjk_normal;
        if (!(dot(normal, normal) > 0.0)) {
            normal = gap * (1.0 / core_distance);
        }
        let margin = pair_query_margin(q);
        return penetration_certified(
            q,
            finish(q, PEN_PENETRATING, cores.a, cores.b, normal, margin - core_distance, 0u),
        );
    }
    let slot = atomicAdd(&queue.count, 1u);
    if (slot % WORKGROUP_SIZE == 0u) {
        atomicAdd(&queue.groups, 1u);
    }
    var task: EpaTask;
    task.pair = index;
    task.len = (*simplex).len;
    task.queued = 1u;
    task.pad1 = 0u;
    for (var i = 0u; i < 4u; i = i + 1u) {
        task.a[i] = vec4<f32>((*simplex).a[i], (*simplex).lambda[i]);
        task.b[i] = vec4<f32>((*simplex).b[i], 0.0);
    }
    if (params.epa_by_pair != 0u) {
        queue.tasks[index] = task;
    } else {
        queue.tasks[slot] = task;
    }
    return penetration_none(PEN_EPA_MAX_ITERATIONS);
}
