//! The properties the fuzzer asserts. What is required of every pair, in both orders (`pair scale` = the
//! larger of the two shapes' bounding radii about their bounding-box centres, radius included):
//! - no failure status (`max_iterations`, `unresolved`, `gpu_loop_limit`, EPA bounds): the CPU answers every
//!   pair, and `unresolved` must not survive the float64 repeat;
//! - no NaN or infinity in any field;
//! - the intersection flag of the exact answer, except within the agreement band `1e-4 x pair scale` of
//!   contact; and the touching-tolerance contract of the README (surfaces closer than `1e-5 x pair scale`
//!   intersect) outside `[0.5, 2] x` that tolerance;
//! - the exact distance within `1e-4 x pair scale`, for float32 and float64 alike;
//! - witnesses: the same point inside (within the band) both shapes when intersecting; on both surfaces,
//!   `witness_b - witness_a = normal x distance`, and that vector near the unique least-distance vector when
//!   separated;
//! - swapping A and B changes nothing but signs: same flag and distance, the least-distance vector and the
//!   normal reversed (in world coordinates; witness points themselves need not be unique, e.g. parallel
//!   faces, so they are compared through their difference), the same depth;
//! - penetration: status `penetrating` exactly when GJK says intersecting; the exact depth within
//!   `1e-3 x pair scale` where it is known (box and point, box and sphere, two boxes, cores apart); the
//!   support functions along the returned normal must need exactly the returned depth; the contacts on
//!   their shapes and `contact_a - contact_b = normal x depth` (within `1e-3 x pair scale`);
//! - generator 3: the same geometry written about the offset and placed by the pose answers the same;
//! - the GPU (after `resolve_failures_on_cpu`): the CPU's flag outside the band, its distance within the band
//!   and its depth within `1e-3 x pair scale`, and everything above against the exact answer.
//!
//! Float32 paths are also allowed the rounding of the inputs they must form in float32 ([`Truth`]'s slacks: a
//! few ulps of the relative position and of the shapes' centres), which matters only for pairs far apart.

use crate::answers::{run_cpu, Answer, Pen, Run};
use crate::model::{Case, Solid};
use crate::truth::{vector_tolerance, Truth};
use crate::{BAND, DEPTH, TOUCH};
use glam::DVec3;
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::GjkStatus;

fn finite(v: DVec3) -> bool {
    v.is_finite()
}

/// The tail of every numeric problem: how far off and how much was allowed (the triage of known bugs reads
/// it back).
pub(crate) fn excess(off: f64, allowed: f64) -> String {
    format!("[off by {off:.3e}, allowed {allowed:.3e}]")
}

/// Reads back [`excess`]: off / allowed, when the line has it.
pub(crate) fn excess_ratio(line: &str) -> Option<f64> {
    let tail = &line[line.rfind("[off by ")? + 8..];
    let (off, rest) = tail.split_once(", allowed ")?;
    let allowed = rest.split(']').next()?;
    Some(off.parse::<f64>().ok()? / allowed.parse::<f64>().ok()?)
}

/// Everything one GJK answer must satisfy against the exact answer.
#[expect(
    clippy::too_many_arguments,
    reason = "one flat list of what a check needs"
)]
pub(crate) fn check_answer(
    what: &str,
    r: &Answer,
    distance_kind: bool,
    slack: f64,
    t: &Truth,
    a: &Solid,
    b: &Solid,
    problems: &mut Vec<String>,
) {
    let band = BAND * t.scale + slack;
    let mut fail = |s: String| problems.push(format!("{what}: {s}"));
    if !(r.distance.is_finite() && finite(r.witness_a) && finite(r.witness_b) && finite(r.normal)) {
        fail(format!("non-finite field in {r:?}"));
        return;
    }
    if r.status.is_failure() {
        fail(format!("failure status {}", r.status.name()));
        return;
    }
    if r.intersecting != (r.status == GjkStatus::Intersecting) {
        fail(format!("flag and status disagree: {r:?}"));
    }
    // The flag.
    match t.signed {
        Some(s) if s > band && r.intersecting => fail(format!(
            "says intersecting, but the exact distance is {s:e} (band {band:e})"
        )),
        Some(s) if s < -band && !r.intersecting => fail(format!(
            "says separated (distance {:e}), but the shapes overlap by {:e} (band {band:e})",
            r.distance, -s
        )),
        None if !r.intersecting => {
            let gap = t.gap_along(a, b, r.normal.normalize_or_zero());
            if t.signed_upper < -band || gap < -band {
                fail(format!(
                    "says separated (distance {:e}), but the cores overlap (surfaces by at least {:e}; \
                     along the answer's normal by {:e}; band {band:e})",
                    r.distance, -t.signed_upper, -gap
                ));
            }
        }
        _ => {}
    }
    // The touching tolerance of the README: surfaces closer than TOUCH x scale intersect.
    if let Some(s) = t.signed {
        let tol = TOUCH * t.scale;
        if s < 0.5 * tol - slack && !r.intersecting {
            fail(format!(
                "separated at exact distance {s:e}, below half the touching tolerance {tol:e}"
            ));
        }
        if s > 2.0 * tol + slack && r.intersecting {
            fail(format!(
                "intersecting at exact distance {s:e}, above twice the touching tolerance {tol:e}"
            ));
        }
    }
    if !distance_kind {
        return;
    }
    let expected = t.distance();
    let off = (r.distance - expected).abs();
    if off > band {
        fail(format!(
            "distance {:e}, exact {expected:e} {}",
            r.distance,
            excess(off, band)
        ));
    }
    let on_a = a.signed_distance_to(r.witness_a);
    let on_b = b.signed_distance_to(t.to_b(r.witness_b));
    if r.intersecting {
        if r.distance != 0.0 {
            fail(format!("intersecting with distance {:e}", r.distance));
        }
        let apart = (r.witness_a - r.witness_b).length();
        if apart > band {
            fail(format!(
                "intersecting, but the witnesses differ: {} and {} {}",
                r.witness_a,
                r.witness_b,
                excess(apart, band)
            ));
        }
        if on_a > band || on_b > band {
            fail(format!(
                "intersecting witnesses outside the shapes: {on_a:e} from A, {on_b:e} from B {}",
                excess(on_a.max(on_b), band)
            ));
        }
        return;
    }
    if (r.normal.length() - 1.0).abs() > 1e-4 {
        fail(format!(
            "separated with a normal of length {}",
            r.normal.length()
        ));
        return;
    }
    // Each witness may be a band off its exact place, so their difference may be two.
    let v = r.witness_b - r.witness_a;
    let off = (v - r.normal * r.distance).length();
    if off > 2.0 * band {
        fail(format!(
            "witness_b - witness_a = {v} is not normal x distance = {} {}",
            r.normal * r.distance,
            excess(off, 2.0 * band)
        ));
    }
    if on_a.abs() > band || on_b.abs() > band {
        fail(format!(
            "separated witnesses off the surfaces: {on_a:e} from A, {on_b:e} from B {}",
            excess(on_a.abs().max(on_b.abs()), band)
        ));
    }
    if let Some(s) = t.signed.filter(|s| *s > band) {
        let exact = t.surface_vector();
        let tol = vector_tolerance(s, band);
        let off = (v - exact).length();
        if off > tol {
            fail(format!(
                "least-distance vector {v}, exact {exact} {}",
                excess(off, tol)
            ));
        }
        let off = (r.normal - exact / s).length();
        if off > 2.0 * tol / s {
            fail(format!(
                "normal {}, exact {} {}",
                r.normal,
                exact / s,
                excess(off, 2.0 * tol / s)
            ));
        }
    }
}

/// Everything a penetration answer must satisfy against the exact answer and its own GJK answer.
pub(crate) fn check_penetration(
    p: &Pen,
    gjk: &Answer,
    t: &Truth,
    a: &Solid,
    b: &Solid,
    problems: &mut Vec<String>,
) {
    let what = "penetration_query";
    let tol = DEPTH * t.scale + t.slack_world;
    let mut fail = |s: String| problems.push(format!("{what}: {s}"));
    if !(p.depth.is_finite() && finite(p.normal) && finite(p.contact_a) && finite(p.contact_b)) {
        fail(format!("non-finite field in {p:?}"));
        return;
    }
    if p.status.is_failure() {
        fail(format!("failure status {}", p.status.name()));
        return;
    }
    if (p.status == PenetrationStatus::Penetrating) != gjk.intersecting {
        fail(format!(
            "status {} but GJK says intersecting = {}",
            p.status.name(),
            gjk.intersecting
        ));
    }
    if p.status != PenetrationStatus::Penetrating {
        return;
    }
    if (p.normal.length() - 1.0).abs() > 1e-4 || p.depth < 0.0 {
        fail(format!(
            "normal of length {}, depth {}",
            p.normal.length(),
            p.depth
        ));
        return;
    }
    let off = (p.contact_a - p.contact_b - p.normal * p.depth).length();
    if off > tol {
        fail(format!(
            "contact_a - contact_b = {} is not normal x depth = {} {}",
            p.contact_a - p.contact_b,
            p.normal * p.depth,
            excess(off, tol)
        ));
    }
    // The contacts are points of the shapes: contact_a of A, contact_b of B.
    let (on_a, on_b) = (
        a.signed_distance_to(p.contact_a),
        b.signed_distance_to(t.to_b(p.contact_b)),
    );
    if on_a > tol || on_b > tol {
        fail(format!(
            "contacts outside their shapes: contact_a {on_a:e} from A, contact_b {on_b:e} from B {}",
            excess(on_a.max(on_b), tol)
        ));
    }
    let needed = -t.gap_along(a, b, p.normal);
    if (needed - p.depth).abs() > tol {
        fail(format!(
            "depth {:e}, but B needs {needed:e} along the answer's normal {} {}",
            p.depth,
            p.normal,
            excess((needed - p.depth).abs(), tol)
        ));
    }
    match t.signed {
        Some(s) if s <= 0.0 && (p.depth + s).abs() > tol => fail(format!(
            "depth {:e}, exact {:e} {}",
            p.depth,
            -s,
            excess((p.depth + s).abs(), tol)
        )),
        Some(s) if s > 0.0 && p.depth > tol => fail(format!(
            "depth {:e} for shapes {s:e} apart {}",
            p.depth,
            excess(p.depth, tol)
        )),
        None if p.depth < t.radii - tol => fail(format!(
            "depth {:e}, less than the radii {:e} though the cores overlap {}",
            p.depth,
            t.radii,
            excess(t.radii - p.depth, tol)
        )),
        _ => {}
    }
}

/// Checks every answer of one ordered pair.
fn check_run(run: &Run, t: &Truth, a: &Solid, b: &Solid, problems: &mut Vec<String>) {
    for (what, r, slack, distance_kind) in &run.answers {
        check_answer(what, r, *distance_kind, slack.of(t), t, a, b, problems);
    }
    let (_, pen_gjk, _, _) = run.answers[4];
    check_penetration(&run.pen, &pen_gjk, t, a, b, problems);
    // Float32 against the float64 run of the same algorithm, directly.
    let ((_, narrow, _, _), (_, wide, _, _)) = (&run.answers[1], &run.answers[3]);
    let band = BAND * t.scale + t.slack_rel;
    if !narrow.status.is_failure() && !wide.status.is_failure() {
        if narrow.intersecting != wide.intersecting && !t.in_band(band) {
            problems.push(format!(
                "query_relative against query_f64: flag {} in float32, {} in float64",
                narrow.intersecting, wide.intersecting
            ));
        }
        let off = (narrow.distance - wide.distance).abs();
        if off > band {
            problems.push(format!(
                "query_relative against query_f64: distance {:e} in float32, {:e} in float64 {}",
                narrow.distance,
                wide.distance,
                excess(off, band)
            ));
        }
    }
}

/// Two runs of the same geometry must agree: `flip` when the second has A and B swapped (vectors then
/// reverse), otherwise the same pair written another way. Vectors are compared in world coordinates.
fn compare_runs(x: &Run, y: &Run, t: &Truth, t_y: &Truth, flip: bool, problems: &mut Vec<String>) {
    let (sign, how) = if flip {
        (-1.0, "swapped")
    } else {
        (1.0, "twin")
    };
    for ((what, rx, slack, distance_kind), (_, ry, _, _)) in x.answers.iter().zip(&y.answers) {
        let band = BAND * t.scale + slack.of(t).max(slack.of(t_y));
        let mut fail = |s: String| problems.push(format!("{what}, {how}: {s}"));
        if rx.status.is_failure() || ry.status.is_failure() {
            continue; // already reported
        }
        if rx.intersecting != ry.intersecting && !t.in_band(band) {
            fail(format!(
                "flag {} one way, {} the other",
                rx.intersecting, ry.intersecting
            ));
        }
        if !distance_kind {
            continue;
        }
        let off = (rx.distance - ry.distance).abs();
        if off > band {
            fail(format!(
                "distance {:e} one way, {:e} the other {}",
                rx.distance,
                ry.distance,
                excess(off, band)
            ));
        }
        if rx.intersecting || ry.intersecting {
            continue;
        }
        let d = rx.distance.max(ry.distance);
        let tol = 2.0 * vector_tolerance(d, band);
        let vx = x.rotation_a * (rx.witness_b - rx.witness_a);
        let vy = y.rotation_a * (ry.witness_b - ry.witness_a) * sign;
        if (vx - vy).length() > tol {
            fail(format!(
                "least-distance vector {vx} one way, {vy} the other {}",
                excess((vx - vy).length(), tol)
            ));
        }
        if d > band {
            let (nx, ny) = (x.rotation_a * rx.normal, y.rotation_a * ry.normal * sign);
            if (nx - ny).length() > 2.0 * tol / d {
                fail(format!(
                    "normal {nx} one way, {ny} the other {}",
                    excess((nx - ny).length(), 2.0 * tol / d)
                ));
            }
        }
    }
    let (px, py) = (&x.pen, &y.pen);
    if px.status == PenetrationStatus::Penetrating && py.status == PenetrationStatus::Penetrating {
        let tol = DEPTH * t.scale + t.slack_world.max(t_y.slack_world);
        let off = (px.depth - py.depth).abs();
        if off > tol {
            problems.push(format!(
                "penetration_query, {how}: depth {:e} one way, {:e} the other {}",
                px.depth,
                py.depth,
                excess(off, tol)
            ));
        }
    }
}

/// Both orders of one pair, checked and compared; returns the runs for the twin comparison.
fn check_both_orders(
    case: &Case,
    problems: &mut Vec<String>,
) -> Result<(Run, Run, Truth, Truth), String> {
    let (a, pa, b, pb) = case.ordered();
    let t_ab = Truth::of(a, pa, b, pb)?;
    let t_ba = Truth::of(b, pb, a, pa)?;
    let ab = run_cpu(a, pa, b, pb);
    let ba = run_cpu(b, pb, a, pa);
    let mut local = Vec::new();
    check_run(&ab, &t_ab, a, b, &mut local);
    problems.extend(local.drain(..).map(|p| format!("(A,B) {p}")));
    check_run(&ba, &t_ba, b, a, &mut local);
    problems.extend(local.drain(..).map(|p| format!("(B,A) {p}")));
    compare_runs(&ab, &ba, &t_ab, &t_ba, true, problems);
    Ok((ab, ba, t_ab, t_ba))
}

/// The property every CPU fuzz test checks.
pub(crate) fn check_case(case: &Case) -> Result<(), String> {
    let mut problems = Vec::new();
    let (ab, ba, t_ab, t_ba) = check_both_orders(case, &mut problems)?;
    if let Some(twin) = &case.twin {
        let mut twin_problems = Vec::new();
        let (tab, tba, tt_ab, tt_ba) = check_both_orders(twin, &mut twin_problems)?;
        problems.extend(twin_problems.into_iter().map(|p| format!("twin {p}")));
        compare_runs(&ab, &tab, &t_ab, &tt_ab, false, &mut problems);
        compare_runs(&ba, &tba, &t_ba, &tt_ba, false, &mut problems);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let (a, pa, b, pb) = case.ordered();
        let t = Truth::of(a, pa, b, pb)?;
        Err(format!(
            "{}: exact signed distance {:?} (upper bound {:e}), pair scale {:e}\n  {}",
            case.label,
            t.signed,
            t.signed_upper,
            t.scale,
            problems.join("\n  ")
        ))
    }
}
