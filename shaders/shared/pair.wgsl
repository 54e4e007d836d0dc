// A pair of placed shapes prepared for GJK and EPA, and the way back to A's local frame: the twin of
// src/query/frame.rs (`Prepared`) and src/query/units.rs (`pair_unit`).

fn exponent_of(x: f32) -> i32 {
    return i32((bitcast<u32>(x) >> F32_MANTISSA_BITS) & 0xffu) - F32_EXPONENT_BIAS;
}

// The power of two that brings the pair to unit scale.
fn pair_unit(scale: f32, offset: f32) -> f32 {
    var e = 0;
    if (scale > 0.0) {
        e = exponent_of(scale);
    } else if (offset > 0.0) {
        e = exponent_of(offset);
    }
    if (offset > 0.0) {
        e = max(e, exponent_of(offset) - UNIT_OFFSET_EXPONENTS);
    }
    e = clamp(e, -UNIT_MAX_EXPONENT, UNIT_MAX_EXPONENT);
    return bitcast<f32>(u32(F32_EXPONENT_BIAS - e) << F32_MANTISSA_BITS);
}

// The pair in normalised units, and what it takes to move the answer back.
struct Prepared {
    query: PairQuery,
    unit: f32,
    centre_a: vec3<f32>,
}

// B's centred points relative to A's, formed in float32 as RelativePose::between_f32 and Prepared::new form
// them on the CPU (position + rotation * centre_b - centre_a), normalised.
fn prepared_new(pair: vec2<u32>) -> Prepared {
    let instance_a = instances[pair.x];
    let instance_b = instances[pair.y];
    let hull_a = hulls[instance_a.hull];
    let hull_b = hulls[instance_b.hull];
    let inv_a = quat_conjugate(instance_a.rotation);
    let rotation = quat_mul(inv_a, instance_b.rotation);
    let local = quat_rotate(inv_a, instance_b.position - instance_a.position);
    let position = local + quat_rotate(rotation, hull_b.centre) - hull_a.centre;
    let scale = max(hull_a.bound, hull_b.bound);
    let offset = abs(position);
    let unit = pair_unit(scale, max(max(offset.x, offset.y), offset.z));
    let support = PairSupport(hull_a, hull_b, mat3_from_quat(rotation), position * unit, unit);
    let query = PairQuery(support, hull_a.radius * unit, hull_b.radius * unit, scale * unit);
    return Prepared(query, unit, hull_a.centre);
}

// A GJK answer in normalised units and A's centred frame, in A's local frame and the user's units.
fn prepared_gjk_to_local(p: Prepared, r: GpuResult) -> GpuResult {
    let back = 1.0 / p.unit;
    var out = r;
    out.distance = r.distance * back;
    out.witness_a = r.witness_a * back + p.centre_a;
    out.witness_b = r.witness_b * back + p.centre_a;
    return out;
}

fn prepared_penetration_to_local(p: Prepared, pen: GpuPenetration) -> GpuPenetration {
    let back = 1.0 / p.unit;
    var out = pen;
    out.depth = pen.depth * back;
    out.contact_a = pen.contact_a * back + p.centre_a;
    out.contact_b = pen.contact_b * back + p.centre_a;
    return out;
}
