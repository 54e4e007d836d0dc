//! Every constant the WGSL shares with Rust, written once (in the Rust module that explains it) and emitted
//! into the WGSL when a kernel is assembled: statuses, query kinds, tolerances, bounds, the workgroup size. No
//! `.wgsl` file declares one by hand (src/gpu/shader/layout_tests.rs checks that, and that naga reads back exactly these
//! values).

use crate::epa::{
    PenetrationStatus, EPA_CERTIFICATE_ROUNDING_ULPS, EPA_CERTIFICATE_SLACK,
    EPA_COPLANAR_COSINE_SLACK, EPA_COPLANAR_ULPS, EPA_MAX_FACES, EPA_MAX_HORIZON,
    EPA_MAX_ITERATIONS, EPA_MAX_VERTICES, EPA_TOLERANCE, EPA_TOUCH_SLACK, EPA_UNIT_NORMAL_SLACK,
};
use crate::gjk::{
    GjkStatus, QueryKind, BOUND_ROUNDING_ULPS, CERTIFICATE_ULPS, CONVERGENCE_ULPS,
    DIRECTION_ROUNDING_CAP, DIRECTION_ROUNDING_ULPS, INTERSECTION_CERTIFICATE_ULPS,
    LOWER_BOUND_NOISE_FACTOR, MAX_STALLS, NOISE_ULPS, PLANE_SLACK_CAP, WEIGHT_SLACK_ULPS,
};
use crate::gpu::epa_scratch::{
    EPA_SCRATCH_CORNERS, EPA_SCRATCH_HORIZON, EPA_SCRATCH_PLANES, EPA_SCRATCH_VERTEX_A,
    EPA_SCRATCH_VERTEX_B, EPA_SCRATCH_WORDS,
};
use crate::gpu::hulls::{END_OF_NEIGHBOURS, START_CELLS};
use crate::gpu::manifold::codes::{
    MANIFOLD_ANSWERED, MANIFOLD_GPU_LOOP_LIMIT, MANIFOLD_POLYGON_BOUND, MANIFOLD_WORKGROUP_SIZE,
    MAX_POLYGON,
};
use crate::gpu::mark_bits::{MARK_COLLIDING, MARK_DISPUTED, MARK_UNANSWERED};
use crate::gpu::packed::{
    PenetrationFormat, ResultFormat, MAX_PACKED_ITERATIONS, STATUS_WORD_SHIFT,
};
use crate::gpu::pair_entry::PAIR_ENTRY_WORDS;
use crate::gpu::physics::contacts::codes::{
    PHYSICS_CONTACT_INVALID, PHYSICS_CONTACT_LOOP_LIMIT, PHYSICS_CONTACT_POLYGON_BOUND,
};
use crate::gpu::physics::layout::{
    PHYSICS_BODY_ASLEEP, PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING,
};
use crate::gpu::sat::codes::{
    AXIS_EDGES, AXIS_FACE_A, AXIS_FACE_B, HULL_HEADER_WORDS, SAT_ANSWERED, SAT_GPU_LOOP_LIMIT,
    SAT_PARALLEL_SINE,
};
use crate::gpu::WORKGROUP_SIZE;
use crate::manifold::{
    FeatureKind, EDGE_MIN_FRACTION, FACE_MIN_ALIGNMENT, FACE_TIE, REFERENCE_BIAS,
    SUPPORT_TIE_FRACTION, TIE_FRACTION,
};
use crate::query::{
    F32_EXPONENT_BIAS, F32_MANTISSA_BITS, UNIT_MAX_EXPONENT, UNIT_OFFSET_EXPONENTS,
};
use crate::shape::START_TABLE_SIDE;
use std::fmt::Write;

/// A constant's value, in the WGSL type it is declared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum WgslValue {
    U32(u32),
    I32(i32),
    F32(f32),
}

/// One emitted constant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct WgslConstant {
    pub name: String,
    pub value: WgslValue,
}

fn u32_constant(name: &str, value: u32) -> WgslConstant {
    WgslConstant {
        name: name.to_owned(),
        value: WgslValue::U32(value),
    }
}

fn f32_constant(name: &str, value: f64) -> WgslConstant {
    WgslConstant {
        name: name.to_owned(),
        value: WgslValue::F32(value as f32),
    }
}

fn i32_constant(name: &str, value: i32) -> WgslConstant {
    WgslConstant {
        name: name.to_owned(),
        value: WgslValue::I32(value),
    }
}

/// Every shared constant, in emission order.
pub(crate) fn shared_constants() -> Vec<WgslConstant> {
    let mut out = vec![
        f32_constant("EPSILON", f32::EPSILON as f64),
        f32_constant("CONVERGENCE_ULPS", CONVERGENCE_ULPS),
        f32_constant("NOISE_ULPS", NOISE_ULPS),
        f32_constant("LOWER_BOUND_NOISE_FACTOR", LOWER_BOUND_NOISE_FACTOR),
        u32_constant("MAX_STALLS", MAX_STALLS),
        f32_constant("CERTIFICATE_ULPS", CERTIFICATE_ULPS),
        f32_constant(
            "INTERSECTION_CERTIFICATE_ULPS",
            INTERSECTION_CERTIFICATE_ULPS,
        ),
        f32_constant("BOUND_ROUNDING_ULPS", BOUND_ROUNDING_ULPS),
        f32_constant("DIRECTION_ROUNDING_ULPS", DIRECTION_ROUNDING_ULPS),
        f32_constant("DIRECTION_ROUNDING_CAP", DIRECTION_ROUNDING_CAP),
        f32_constant("WEIGHT_SLACK_ULPS", WEIGHT_SLACK_ULPS),
        f32_constant("PLANE_SLACK_CAP", PLANE_SLACK_CAP),
        u32_constant("F32_MANTISSA_BITS", F32_MANTISSA_BITS),
        i32_constant("F32_EXPONENT_BIAS", F32_EXPONENT_BIAS),
        i32_constant("UNIT_MAX_EXPONENT", UNIT_MAX_EXPONENT),
        i32_constant("UNIT_OFFSET_EXPONENTS", UNIT_OFFSET_EXPONENTS),
        u32_constant("EPA_MAX_VERTICES", EPA_MAX_VERTICES as u32),
        u32_constant("EPA_MAX_FACES", EPA_MAX_FACES as u32),
        u32_constant("EPA_MAX_HORIZON", EPA_MAX_HORIZON as u32),
        u32_constant("EPA_MAX_ITERATIONS", EPA_MAX_ITERATIONS),
        u32_constant("EPA_SCRATCH_VERTEX_A", EPA_SCRATCH_VERTEX_A),
        u32_constant("EPA_SCRATCH_VERTEX_B", EPA_SCRATCH_VERTEX_B),
        u32_constant("EPA_SCRATCH_PLANES", EPA_SCRATCH_PLANES),
        u32_constant("EPA_SCRATCH_CORNERS", EPA_SCRATCH_CORNERS),
        u32_constant("EPA_SCRATCH_HORIZON", EPA_SCRATCH_HORIZON),
        u32_constant("EPA_SCRATCH_WORDS", EPA_SCRATCH_WORDS),
        f32_constant("EPA_TOLERANCE", EPA_TOLERANCE),
        f32_constant("EPA_TOUCH_SLACK", EPA_TOUCH_SLACK),
        f32_constant("EPA_CERTIFICATE_SLACK", EPA_CERTIFICATE_SLACK),
        f32_constant(
            "EPA_CERTIFICATE_ROUNDING_ULPS",
            EPA_CERTIFICATE_ROUNDING_ULPS,
        ),
        f32_constant("EPA_COPLANAR_COSINE_SLACK", EPA_COPLANAR_COSINE_SLACK),
        f32_constant("EPA_COPLANAR_ULPS", EPA_COPLANAR_ULPS),
        f32_constant("EPA_UNIT_NORMAL_SLACK", EPA_UNIT_NORMAL_SLACK),
        // `Real::squarable` in src/real.rs: the range of squared lengths taken as they are.
        f32_constant(
            "SQUARABLE_MIN_LEN2",
            (f32::MIN_POSITIVE / f32::EPSILON) as f64,
        ),
        f32_constant("F32_MAX", f32::MAX as f64),
        u32_constant("WORKGROUP_SIZE", WORKGROUP_SIZE),
        u32_constant("CLIMBING", 1),
        u32_constant("START_TABLE_SIDE", START_TABLE_SIDE as u32),
        u32_constant("START_CELLS", START_CELLS as u32),
        f32_constant("END_OF_NEIGHBOURS", END_OF_NEIGHBOURS as f64),
        u32_constant("STATUS_WORD_SHIFT", STATUS_WORD_SHIFT),
        u32_constant("MAX_PACKED_ITERATIONS", MAX_PACKED_ITERATIONS),
        u32_constant("FORMAT_FULL", ResultFormat::Full as u32),
        u32_constant("FORMAT_DISTANCE", ResultFormat::Distance as u32),
        u32_constant("FORMAT_HIT", ResultFormat::Hit as u32),
        u32_constant("FORMAT_CONTACT", PenetrationFormat::Contact as u32),
        u32_constant("MARK_COLLIDING", MARK_COLLIDING),
        u32_constant("MARK_UNANSWERED", MARK_UNANSWERED),
        u32_constant("MARK_DISPUTED", MARK_DISPUTED),
        u32_constant("PAIR_ENTRY_WORDS", PAIR_ENTRY_WORDS),
        u32_constant("HULL_HEADER_WORDS", HULL_HEADER_WORDS as u32),
        u32_constant("SAT_ANSWERED", SAT_ANSWERED),
        u32_constant("SAT_GPU_LOOP_LIMIT", SAT_GPU_LOOP_LIMIT),
        u32_constant("AXIS_FACE_A", AXIS_FACE_A),
        u32_constant("AXIS_FACE_B", AXIS_FACE_B),
        u32_constant("AXIS_EDGES", AXIS_EDGES),
        f32_constant("SAT_PARALLEL_SINE", SAT_PARALLEL_SINE),
        u32_constant("WORKGROUP_SIZE_MANIFOLD", MANIFOLD_WORKGROUP_SIZE),
        u32_constant("MANIFOLD_ANSWERED", MANIFOLD_ANSWERED),
        u32_constant("MANIFOLD_GPU_LOOP_LIMIT", MANIFOLD_GPU_LOOP_LIMIT),
        u32_constant("MANIFOLD_POLYGON_BOUND", MANIFOLD_POLYGON_BOUND),
        u32_constant("MANIFOLD_MAX_POLYGON", MAX_POLYGON as u32),
        // The clipped polygon's points and EPA's deepest pair, added where none is as deep.
        u32_constant("MANIFOLD_MAX_CANDIDATES", MAX_POLYGON as u32 + 1),
        u32_constant("FEATURE_VERTEX", FeatureKind::Vertex as u32),
        u32_constant("FEATURE_EDGE", FeatureKind::Edge as u32),
        u32_constant("FEATURE_FACE", FeatureKind::Face as u32),
        u32_constant("FEATURE_DEEPEST", FeatureKind::Deepest as u32),
        f32_constant("EDGE_MIN_FRACTION", EDGE_MIN_FRACTION),
        f32_constant("MANIFOLD_TIE_FRACTION", TIE_FRACTION),
        f32_constant("MANIFOLD_SUPPORT_TIE_FRACTION", SUPPORT_TIE_FRACTION),
        f32_constant("MANIFOLD_FACE_MIN_ALIGNMENT", FACE_MIN_ALIGNMENT),
        f32_constant("MANIFOLD_FACE_TIE", FACE_TIE),
        f32_constant("MANIFOLD_REFERENCE_BIAS", REFERENCE_BIAS),
        u32_constant("PHYSICS_BODY_ASLEEP", PHYSICS_BODY_ASLEEP),
        u32_constant("PHYSICS_CONTACT_NONE", PHYSICS_CONTACT_NONE),
        u32_constant("PHYSICS_CONTACT_TOUCHING", PHYSICS_CONTACT_TOUCHING),
        u32_constant("PHYSICS_CONTACT_LOOP_LIMIT", PHYSICS_CONTACT_LOOP_LIMIT),
        u32_constant(
            "PHYSICS_CONTACT_POLYGON_BOUND",
            PHYSICS_CONTACT_POLYGON_BOUND,
        ),
        u32_constant("PHYSICS_CONTACT_INVALID", PHYSICS_CONTACT_INVALID),
    ];
    for status in GjkStatus::ALL {
        let name = format!("STATUS_{}", status.name().to_uppercase());
        out.push(u32_constant(&name, status as u32));
    }
    for kind in QueryKind::ALL {
        let name = format!("KIND_{}", kind.name().to_uppercase());
        out.push(u32_constant(&name, kind as u32));
    }
    for status in PenetrationStatus::ALL {
        let name = format!("PEN_{}", status.name().to_uppercase());
        out.push(u32_constant(&name, status as u32));
    }
    out
}

/// Whether a kernel carries the hull climb (`support_climb`): `CLIMBING` is 1 or 0. Where no uploaded hull
/// climbs, the kernels are built without it, since its code alone, never run, made the intersection kernel about
/// 8% slower on an H200 (docs/benchmarks.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Climbing {
    Compiled,
    Left,
}

/// The WGSL declarations of [`shared_constants`], one per line, with `CLIMBING` set for `climbing`. Floats are
/// written with Rust's shortest round-trip form, which WGSL parses back to the same float32.
pub(crate) fn wgsl_constants_for(climbing: Climbing) -> String {
    let mut text = String::from(
        "// Generated from Rust by src/gpu/shader/constants.rs when the kernel is assembled.\n",
    );
    for mut c in shared_constants() {
        if c.name == "CLIMBING" {
            c.value = WgslValue::U32(u32::from(climbing == Climbing::Compiled));
        }
        let _ = match c.value {
            WgslValue::U32(v) => writeln!(text, "const {}: u32 = {v}u;", c.name),
            WgslValue::I32(v) => writeln!(text, "const {}: i32 = {v}i;", c.name),
            WgslValue::F32(v) => writeln!(text, "const {}: f32 = {v:?};", c.name),
        };
    }
    text
}
