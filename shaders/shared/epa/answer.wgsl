// What EPA answers: the twin of src/epa/answer.rs. The bounds and tolerances come from Rust.

// An answer with no depth: separated, or a failure before EPA could start (Penetration::none).
fn penetration_none(status: u32) -> GpuPenetration {
    var p: GpuPenetration;
    p.status = status;
    p.depth = 0.0;
    p.normal = vec3<f32>(0.0);
    p.contact_a = vec3<f32>(0.0);
    p.contact_b = vec3<f32>(0.0);
    p.iterations = 0u;
    return p;
}
