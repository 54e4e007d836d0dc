// The penetration kernels' outputs and the certificate every penetrating answer must pass: the twin of
// src/query/penetration.rs (`penetration_certified`).

// FORMAT_FULL: GJK's GpuResult in `results` and the GpuPenetration in `penetrations`, 12 words each.
// FORMAT_CONTACT: one PackedContact (src/gpu/packed.rs) per pair in `penetrations`, nothing in `results`. Both
// are arrays of vec4<u32>: a record is three 16-byte stores (result_quad in output.wgsl), not 12 scalar ones.
@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> penetrations: array<vec4<u32>>;
@group(0) @binding(7) var<storage, read_write> queue: EpaQueue;

// Pair `index`'s penetration record: normal and depth, contact A and word 7, contact B and word 11 (the
// status and iterations of a GpuPenetration; a PackedContact's penetration and GJK status words).
fn store_penetration_record(index: u32, pen: GpuPenetration, word7: u32, word11: u32) {
    let at = index * 3u;
    penetrations[at] = result_quad(pen.normal, bitcast<u32>(pen.depth));
    penetrations[at + 1u] = result_quad(pen.contact_a, word7);
    penetrations[at + 2u] = result_quad(pen.contact_b, word11);
}

// Pass 1's answers for pair `index`: GJK's, and the penetration answer that needs no polytope (or the
// placeholder of a pair queued for EPA). In a PackedContact, a pair GJK found apart (or could not answer) has a
// penetration answer without depth, normal or contacts, so those words keep GJK's distance answer instead.
fn store_pass1_answers(index: u32, gjk: GpuResult, pen: GpuPenetration) {
    if (params.format != FORMAT_CONTACT) {
        store_gjk_result(index, gjk);
        store_penetration_record(index, pen, pen.status, pen.iterations);
        return;
    }
    var fields = pen;
    if (gjk.status != STATUS_INTERSECTING) {
        fields.normal = gjk.normal;
        fields.depth = gjk.distance;
        fields.contact_a = gjk.witness_a;
        fields.contact_b = gjk.witness_b;
    }
    store_penetration_record(
        index,
        fields,
        status_word(pen.status, pen.iterations),
        status_word(gjk.status, gjk.iterations),
    );
}

// Pass 2's answer for a queued pair; a PackedContact keeps pass 1's GJK status word (word 11).
fn store_epa_answer(index: u32, pen: GpuPenetration) {
    if (params.format != FORMAT_CONTACT) {
        store_penetration_record(index, pen, pen.status, pen.iterations);
        return;
    }
    let gjk_word = penetrations[index * 3u + 2u].w;
    store_penetration_record(index, pen, status_word(pen.status, pen.iterations), gjk_word);
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
