//! Library bugs the fuzzer found, one minimal reproducer each (inputs as the fuzzer shrank them, simplified by
//! hand where that kept the failure), now regression tests: each once failed, and passes since its fix. Those of
//! the first long run and of later long runs are in [`crate::long_runs`].

use crate::common::exact::box_point_signed_distance;
use crate::common::one_pair as query;
use glam::{DQuat, DVec3, Quat, Vec3};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::{ConvexShape, DPose, GjkConfig, GjkStatus, Pose, QueryKind, RelativePose};

pub(crate) fn point() -> ConvexShape {
    ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap()
}

/// 1/sqrt(2): the components of the quarter and half turns among the fuzzer's special rotations.
pub(crate) const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

pub(crate) fn dpose(position: [f64; 3], rotation: [f64; 4]) -> DPose {
    DPose {
        position: DVec3::from_array(position),
        rotation: DQuat::from_array(rotation).normalize(),
    }
}

/// `query_f64` answers `unresolved` for a point 1.5 from the side face of a 2 x 2 x 0.002 slab turned 0.1884
/// rad about y, although its distance is exact (1.5 to the last bit): GJK ends on a sliver triangle of that
/// face whose barycentric weights, from `s2d`, sum to 1 + 2.1e-14, so `certified` (solver.rs) recomputes an
/// upper bound (`simplex.weighted_point()`) 3.1e-14 above the distance, beyond its float64 band of 32 ulps of
/// (upper + scale), about 2.1e-14. About a quarter of the turns in 0..1.57 rad fail the same way, for slab
/// thicknesses 2e-5 to 2e-3. The float32 entry points hand exactly such pairs to this float64 run, which is
/// why the next bug survives their repeat.
#[test]
fn query_f64_resolves_a_point_beside_a_turned_thin_slab() {
    let slab = ConvexShape::cuboid(Vec3::new(1.0, 1.0, 1e-3)).unwrap();
    let turn = DQuat::from_rotation_y(0.1884);
    let pose_b = DPose {
        position: turn * DVec3::new(0.0, 2.5, 0.5 * 1e-3f32 as f64),
        rotation: turn,
    };
    let r = query::query_f64(
        &point(),
        &DPose::IDENTITY,
        &slab,
        &pose_b,
        QueryKind::Distance,
        &GjkConfig::default(),
    );
    assert_eq!(r.status, GjkStatus::Separated, "{r:?}");
    assert!((r.distance - 1.5).abs() < 1e-12, "{r:?}");
}

/// The float32 entry points (`query`, `query_relative`, `penetration_query`) answer `unresolved` (and
/// `gjk_unresolved`) for a point or sphere beside a turned needle or thin slab: float32 leaves the pair
/// unresolved, and the float64 repeat does too (previous bug), so the CPU gives no answer. Seen only with the
/// point or sphere as shape A and the thin box turned in A's frame (about 1 pair in 1,000 of the slab and
/// needle generators). Here a sphere of radius 5.79 is 0.4717 from a 648 x 18 x 0.6 box.
#[test]
fn a_sphere_beside_a_turned_needle_is_resolved_by_the_float64_repeat() {
    let sphere = ConvexShape::sphere(5.7868967).unwrap();
    let needle = ConvexShape::cuboid(Vec3::new(324.21005, 9.222551, 0.30364767)).unwrap();
    let pose_a = dpose(
        [-3.030364990234375, -13.29053783416748, -7.342402458190918],
        [0.0, 0.0, 0.0, 1.0],
    );
    let pose_b = dpose(
        [0.0; 3],
        [
            0.20250574037526806,
            0.8679535494830319,
            0.1694647788865778,
            0.42063018171761496,
        ],
    );
    let relative = RelativePose::<f32>::between(&pose_a, &pose_b);
    let r = query::query_relative(
        &sphere,
        &needle,
        &relative,
        QueryKind::Distance,
        &GjkConfig::default(),
    );
    assert_eq!(r.status, GjkStatus::Separated, "{r:?}");
    // Exact (Wolfe on the corners, minus the radius): 0.4717250239701176; band 1e-4 x 324.2.
    assert!(
        (r.distance as f64 - 0.4717250239701176).abs() < 0.0325,
        "{r:?}"
    );
}

/// GJK hits its 64-iteration bound (`max_iterations`, so the CPU gives no answer) on a point at the surface
/// of a needle 6.6e-3 x 1.4e-6 x 1.7e-7 (exact signed distance -4.9e-9, inside), the point as shape A; and on
/// a point 2.5e-6 outside a 0.105 x 0.105 x 1.9e-7 slab (`query_relative`, both query kinds). Neither kind
/// of pair is repeated in float64.
#[test]
fn a_point_at_the_surface_of_a_needle_or_thin_slab_gets_an_answer() {
    let config = GjkConfig::default();
    let needle = ConvexShape::cuboid(Vec3::new(0.0033098531, 6.763623e-7, 8.67453e-8)).unwrap();
    let pose_point = dpose(
        [0.006366904824972153, 0.0, -0.0011537754908204079],
        [
            0.0,
            0.5881992948251747,
            -0.6312211599225401,
            0.5055506273690205,
        ],
    );
    let pose_needle = dpose(
        [0.006366233341395855, 0.0, -0.0011538313701748848],
        [0.0, 0.0, H, H],
    );
    let r = query::query(
        &point(),
        &pose_point.to_f32(),
        &needle,
        &pose_needle.to_f32(),
        QueryKind::Distance,
        &config,
    );
    let slab = ConvexShape::cuboid(Vec3::new(0.052619614, 0.052619614, 9.264066e-8)).unwrap();
    let pose_point = dpose(
        [
            -0.015733351930975914,
            0.08932381123304367,
            0.05505990982055664,
        ],
        [
            0.4150103492728087,
            0.17727528854673413,
            0.5332736656318924,
            0.7155131582372599,
        ],
    );
    let pose_slab = dpose(
        [-0.03000154346227646, 0.0475129671394825, 0.0836494117975235],
        [
            -0.11338351848228793,
            0.5655842401996742,
            0.561859991770589,
            -0.5929350677956968,
        ],
    );
    let s = query::query_relative(
        &point(),
        &slab,
        &RelativePose::<f32>::between(&pose_point, &pose_slab),
        QueryKind::Distance,
        &config,
    );
    assert!(
        !r.status.is_failure() && !s.status.is_failure(),
        "needle: {r:?}\nslab: {s:?}"
    );
}

/// `penetration_query` answers `epa_degenerate` (after its float64 repeat) for a point 1.5e-7 outside an edge
/// of a 2 x 2e-5 x 0.2 box, which GJK rightly calls intersecting (within the touching tolerance 1e-5):
/// the answer should be `penetrating` with a depth of about 0. Fails in both orders; moving the point by
/// 1e-7 either way makes it pass.
#[test]
fn a_point_touching_a_thin_box_edge_gets_a_zero_depth() {
    let thin = ConvexShape::cuboid(Vec3::new(1.0, 1e-5, 0.1)).unwrap();
    let at = Pose::from_position(Vec3::new(-1.0 - f32::EPSILON, -(1e-5 + 8.6e-8), 0.0));
    let (gjk, hit) =
        query::penetration_query(&thin, &Pose::IDENTITY, &point(), &at, &GjkConfig::default());
    assert!(gjk.intersecting, "{gjk:?}");
    assert_eq!(hit.status, PenetrationStatus::Penetrating, "{hit:?}");
    assert!(hit.depth < 1e-3, "{hit:?}");
}

/// `penetration_query` answers `epa_degenerate` (after its float64 repeat), in both orders, for a box
/// 0.75 x 3 x 0.5 inside a box 1 x 3 x 0.5 with five faces in common (both faces in y and z and the face at
/// -x): the depth is 0.5 along z. Found as two such boxes written with coordinates around 3e6 (generator 3);
/// the same boxes at the origin fail the same way, while a cube inside a cube with five common faces passes.
#[test]
fn boxes_with_five_faces_in_common_get_their_depth() {
    let big = ConvexShape::cuboid(Vec3::new(0.5, 1.5, 0.25)).unwrap();
    let small = ConvexShape::cuboid(Vec3::new(0.375, 1.5, 0.25)).unwrap();
    let at = Pose::from_position(Vec3::new(-0.125, 0.0, 0.0));
    let (_, hit) =
        query::penetration_query(&big, &Pose::IDENTITY, &small, &at, &GjkConfig::default());
    assert_eq!(hit.status, PenetrationStatus::Penetrating, "{hit:?}");
    assert!((hit.depth - 0.5).abs() < 1.6e-3, "{hit:?}");
}

/// `penetration_query` answers `epa_degenerate` (after its float64 repeat) for two identical boxes
/// 1.81 x 0.0151 x 1055 at one pose (here the identity), the FIELD_NOTES case "identical shapes at one pose":
/// its depth field holds the right value (0.01507, twice the thinnest half extent) but the status is a
/// failure, so the CPU gives no answer. About 1 identical box pair in 10 of generator 5 fails so; boxes 2 x
/// 0.02 x 1000 or unit cubes pass.
#[test]
fn identical_thin_boxes_at_one_pose_get_their_depth() {
    let b = ConvexShape::cuboid(Vec3::new(0.9055202, 0.007532696, 527.5978)).unwrap();
    let (_, hit) = query::penetration_query(
        &b,
        &Pose::IDENTITY,
        &b,
        &Pose::IDENTITY,
        &GjkConfig::default(),
    );
    assert_eq!(hit.status, PenetrationStatus::Penetrating, "{hit:?}");
    assert!(
        (hit.depth - 2.0 * 0.007532696).abs() < 1e-3 * b.bounding_radius(),
        "{hit:?}"
    );
}

/// The contacts of a penetrating answer break `contact_a - contact_b = normal * depth` by up to several
/// percent of the pair scale: a point 8.4e-9 from a 2 x 2 x 2.4e-6 slab (inside the touching tolerance;
/// depth 0, 0 EPA expansions) gets contact_a at the point but contact_b 0.065 away from it (4.6% of the scale
/// 1.41), slid along the slab's face; `penetration_f64` on the same pair puts contact_b 8e-9 from the point.
/// Seen on touching points and spheres against thin slabs and needles with the point as shape A (about 1
/// pair in 1,000 of those generators). The contacts come from barycentric weights on a sliver face.
#[test]
fn contacts_of_a_point_touching_a_thin_slab_are_the_depth_apart() {
    let slab = ConvexShape::cuboid(Vec3::new(1.0, 1.0, 1.20054e-6)).unwrap();
    let pose_slab = dpose(
        [0.0; 3],
        [
            -0.1359131453648654,
            0.18737494422625986,
            0.41468134561672015,
            -0.8800327430219521,
        ],
    );
    let pose_point = dpose(
        [1.1785300970077515, -0.04669935256242752, 0.5797262787818909],
        [
            0.7759394573412123,
            -0.23895511378972759,
            -0.3395068802314032,
            0.4749247207824659,
        ],
    );
    let (_, hit) = query::penetration_query(
        &point(),
        &pose_point.to_f32(),
        &slab,
        &pose_slab.to_f32(),
        &GjkConfig::default(),
    );
    assert_eq!(hit.status, PenetrationStatus::Penetrating, "{hit:?}");
    let off = (hit.contact_a - hit.contact_b - hit.normal * hit.depth).length();
    assert!(
        off <= 1e-3 * slab.bounding_radius(),
        "off by {off}: {hit:?}"
    );
}

/// Witness points off their place by up to 3e-4 of the pair scale (the fuzzer allows 1e-4 for each, 2e-4
/// for their difference): an intersecting answer's witness 0.188 outside the slab (3.2e-4 of the scale; the
/// README promises "inside (or on) both shapes") for a sphere of radius 2.37 touching (exact distance 2.8e-3,
/// inside the touching tolerance) an 830 x 830 x 0.025 slab, `query_relative` with the sphere as shape A,
/// where `query` on the same pair is 1.4e-3 off as it should be; and a separated answer whose
/// `witness_b - witness_a` differs from `normal * distance` by 5.9e-5 (3.7e-4 of the scale 0.16; distance and
/// normal are right) for a point 3.7e-3 from a 0.32 x 0.023 x 1.1e-5 needle, `query` with the point as shape
/// A. The witnesses are rebuilt from barycentric weights on a sliver face of the thin box.
#[test]
fn witnesses_on_thin_slabs_and_needles_are_within_the_band() {
    let config = GjkConfig::default();
    let half = Vec3::new(414.82083, 414.82083, 0.01260111);
    let slab = ConvexShape::cuboid(half).unwrap();
    let sphere = ConvexShape::sphere(2.3735678).unwrap();
    let pose_sphere = dpose(
        [-459.1920166015625, 450.810546875, 135.1350555419922],
        [H, H, 0.0, 0.0],
    );
    let pose_slab = dpose(
        [-817.8598022460938, 405.9046325683594, -74.39636993408203],
        [
            -0.41284010515528885,
            -0.7132042537896457,
            -0.5160911857128678,
            0.23356504015201207,
        ],
    );
    let relative = RelativePose::<f32>::between(&pose_sphere, &pose_slab);
    let r = query::query_relative(&sphere, &slab, &relative, QueryKind::Distance, &config);
    // The witness (sphere's frame) in the slab's frame, against the slab's box.
    let (rot, pos) = (relative.rotation.as_dquat(), relative.position.as_dvec3());
    let in_slab = rot.conjugate() * (r.witness_b.as_dvec3() - pos);
    let outside = box_point_signed_distance(half.as_dvec3(), in_slab);

    let needle = ConvexShape::cuboid(Vec3::new(0.16031204, 0.011289023, 5.6436293e-6)).unwrap();
    let pose_point = dpose(
        [
            0.0013895145384594798,
            0.014948402531445026,
            -0.00015478716522920877,
        ],
        [
            0.40749653951984555,
            0.6699045474345047,
            -0.620347394433388,
            0.018535852438695224,
        ],
    );
    let pose_needle = dpose(
        [0.0; 3],
        [
            -0.037943188281194355,
            -0.8711377908936283,
            0.027291747259977944,
            -0.4888091900440543,
        ],
    );
    let s = query::query(
        &point(),
        &pose_point.to_f32(),
        &needle,
        &pose_needle.to_f32(),
        QueryKind::Distance,
        &config,
    );
    let off = (s.witness_b - s.witness_a - s.normal * s.distance).length();
    assert!(
        r.intersecting
            && outside <= 1e-4 * 586.6
            && !s.intersecting
            && off <= 2e-4 * needle.bounding_radius(),
        "sphere and slab: witness {outside} outside the slab: {r:?}\n\
         point and needle: witnesses off normal x distance by {off}: {s:?}"
    );
}

/// Float32 distances off by more than 1e-4 of the pair scale (seen up to 5.8e-4) for a point, a small box or a
/// needle against a very flat box, always shorter than the exact distance: a 1.3e-5 x 7e-6 x 1.1e-5 box
/// 1.61e-4 from a 0.039 x 7.7e-7 x 1.9e-5 needle gets 1.50e-4 from `query` (7% short; 5.8e-4 of the scale
/// 0.0193) with the small box as shape A, the other order is right, and `query_relative` and `query_f64`
/// answer `unresolved`; a point 1.27e-6 from a 2.3e-3 x 8.8e-8 x 3.6e-5 box gets 1.06e-6 (1.8e-4 of the
/// scale) from `query_relative`, point as shape A; a point 1.68e7 from a 2 x 1.8e9 x 87,000 box near the
/// coordinate limit gets 1.6642e7 (2e-4 of the scale 9e8), same order; and a 134 x 0.0085 x 0.0038 needle
/// 1.07e4 from a 3547 x 462 x 2.3e6 box gets 10538 (1.3e-4 of the scale 1.15e6). A distance below the exact
/// one means the simplex's closest point is not a point of A - B: its projection through a sliver face.
#[test]
fn distances_from_small_shapes_to_very_flat_boxes_are_within_the_band() {
    let config = GjkConfig::default();
    let small = ConvexShape::cuboid(Vec3::new(0.0011686666, 4.4193083e-8, 1.8111952e-5)).unwrap();
    let pose_point = dpose(
        [
            -0.0003966506919823587,
            0.00015623716171830893,
            0.00016706685710232705,
        ],
        [
            0.235561632665233,
            -0.5354527521853246,
            0.7778983164229345,
            -0.2295109511540029,
        ],
    );
    let pose_small = dpose(
        [0.0; 3],
        [
            -0.961235199056742,
            0.18279723580176763,
            0.20251429802072662,
            0.040000272183460174,
        ],
    );
    let q = query::query_relative(
        &point(),
        &small,
        &RelativePose::<f32>::between(&pose_point, &pose_small),
        QueryKind::Distance,
        &config,
    );
    let flat = ConvexShape::cuboid(Vec3::new(1.0, 900000000.0, 43698.777)).unwrap();
    let pose_point = dpose([-30729280.0, -845597376.0, -843347776.0], [H, H, 0.0, 0.0]);
    let pose_flat = dpose(
        [0.0, -900000000.0, -900000000.0],
        [
            0.5866574420119649,
            -0.20207581361738852,
            0.6333584631527426,
            -0.4624450977528516,
        ],
    );
    let r = query::query_relative(
        &point(),
        &flat,
        &RelativePose::<f32>::between(&pose_point, &pose_flat),
        QueryKind::Distance,
        &config,
    );
    let needle = ConvexShape::cuboid(Vec3::new(66.85556, 0.004235357, 0.0018821231)).unwrap();
    let long = ConvexShape::cuboid(Vec3::new(1773.6808, 231.24762, 1154550.4)).unwrap();
    let pose_needle = dpose(
        [191031776.0, -900000000.0, 900000000.0],
        [
            -0.6141874967910435,
            -0.712579399805494,
            -0.08345540216420126,
            -0.32869364704539894,
        ],
    );
    let pose_long = dpose(
        [191044240.0, -900000000.0, 900000000.0],
        [0.0, 0.0, 0.0, 1.0],
    );
    let s = query::query(
        &needle,
        &pose_needle.to_f32(),
        &long,
        &pose_long.to_f32(),
        QueryKind::Distance,
        &config,
    );
    let thin = ConvexShape::cuboid(Vec3::new(0.019310342, 3.8442508e-7, 9.308731e-6)).unwrap();
    let little = ConvexShape::cuboid(Vec3::new(6.515878e-6, 3.513136e-6, 5.393586e-6)).unwrap();
    let pose_little = dpose(
        [0.0, -3.358965159350191e-7, 0.00017924296844284981],
        [
            -0.1391709553401536,
            0.837625277716332,
            0.2541712601937997,
            0.4630467684930351,
        ],
    );
    let t = query::query(
        &little,
        &pose_little.to_f32(),
        &thin,
        &Pose::IDENTITY,
        QueryKind::Distance,
        &config,
    );
    // Exact (Wolfe on the corners): 1.6099186605030182e-4, 1.267903070723331e-6, 1.6821387361116573e7 and
    // 10688.344537265795.
    let within = |d: f32, exact: f64, scale: f64| (d as f64 - exact).abs() <= 1e-4 * scale;
    assert!(
        within(t.distance, 1.6099186605030182e-4, 1.9310344395453167e-2)
            && within(q.distance, 1.267903070723331e-6, 1.1688069818862792e-3)
            && within(r.distance, 1.6821387361116573e7, 9e8)
            && within(s.distance, 10688.344537265795, 1.1545517605684178e6),
        "little box: {t:?}\nsmall: {q:?}\nflat: {r:?}\nneedle and long box: {s:?}"
    );
}

/// Penetration depths off by more than 1e-3 of the pair scale: a point at the very centre of a 0.0026 x
/// 0.058 x 59,654 box (exact depth 0.0013) gets 32.58 (1.09e-3 of the scale 2.98e4) with the point as shape A
/// (0 the other way), with contact_b 1000 from the point; and a point 180 outside a 78 x 1.7e8 x 1696 box near
/// the coordinate limit (inside the touching tolerance) gets 9.5e4 (1.13e-3 of the scale 8.5e7). Both come
/// with 0 EPA expansions and pass the library's own certificate, whose slack is that same 1e-3.
#[test]
fn epa_depths_in_very_thin_boxes_are_within_the_tolerance() {
    let config = GjkConfig::default();
    let needle = ConvexShape::cuboid(Vec3::new(0.0013183794, 0.028931785, 29826.764)).unwrap();
    let pose_point = dpose(
        [0.0; 3],
        [
            0.1936500465459313,
            -0.10181072860786473,
            -0.9427012974050404,
            0.25188985466657465,
        ],
    );
    let pose_needle = dpose(
        [0.0; 3],
        [
            0.6196755285738988,
            0.4797331646498017,
            0.4548635673363916,
            0.42303364538976956,
        ],
    );
    let (_, centre) = query::penetration_query(
        &point(),
        &pose_point.to_f32(),
        &needle,
        &pose_needle.to_f32(),
        &config,
    );
    let flat = ConvexShape::cuboid(Vec3::new(39.049038, 84663720.0, 848.0201)).unwrap();
    let pose_point = dpose(
        [-899999232.0, 899999680.0, 900000000.0],
        [
            0.11523450984360738,
            0.10329329096086878,
            0.49794073474477657,
            -0.8532915846681067,
        ],
    );
    let pose_flat = dpose(
        [-900000000.0, 900000000.0, 900000000.0],
        [
            -0.6659905267896341,
            0.5174692407614104,
            0.515614171890871,
            -0.15107689710066988,
        ],
    );
    let (_, beside) = query::penetration_query(
        &point(),
        &pose_point.to_f32(),
        &flat,
        &pose_flat.to_f32(),
        &config,
    );
    assert!(
        (centre.depth as f64 - 0.0013183794).abs() <= 1e-3 * 29826.764
            && (beside.depth as f64) <= 1e-3 * 84663720.0,
        "centre: {centre:?}\nbeside: {beside:?}"
    );
}

/// `penetration_query` returns a GJK answer that says intersecting with a penetration answer that says
/// `separated`: a point 8987.7 from the side of a 2434 x 30,427 x 1.8e9 box, just inside the touching
/// tolerance (9000, 1e-5 of the scale 9e8). The float32 GJK says intersecting and its EPA folds
/// (`epa_degenerate`); `penetration_relative` (query.rs) then repeats GJK and EPA in float64, where GJK lands
/// on the other side of the tolerance (separated), and returns the float32 GJK answer (kept because it was
/// not `unresolved`) next to the float64 penetration answer. The README promises that intersecting pairs,
/// and only they, get a penetration answer.
#[test]
fn penetration_query_agrees_with_its_own_gjk_answer() {
    let long = ConvexShape::cuboid(Vec3::new(1217.056, 15213.649, 900000000.0)).unwrap();
    let pose_point = dpose([0.0; 3], [0.0, 0.0, H, H]);
    let pose_long = dpose(
        [80180576.0, -603884832.0, 662503104.0],
        [
            0.7177138356179843,
            -0.5940875410622516,
            -0.26643507355021545,
            -0.2468991601837072,
        ],
    );
    let (gjk, hit) = query::penetration_query(
        &point(),
        &pose_point.to_f32(),
        &long,
        &pose_long.to_f32(),
        &GjkConfig::default(),
    );
    assert_eq!(
        gjk.intersecting,
        hit.status == PenetrationStatus::Penetrating,
        "GJK: {gjk:?}\npenetration: {hit:?}"
    );
}

/// `penetration_query` panics ("a closed polytope has faces", src/gjk/epa.rs:581) on two needles crossing at
/// one centre: a 1.09 x 0.0047 x 38.6 box turned half a turn about x + y and a 0.019 x 0.086 x 69,186 box
/// turned generally, both at the origin, the first as shape A (the other order answers). The EPA polytope
/// loses its last face and the `expect` fires: a panic on valid input, which also takes down
/// `penetration_batch` and `resolve_failures_on_cpu`. Found at positions (9e8, 9e8, 9e8); any common
/// position gives the same relative pose.
#[test]
fn crossing_needles_at_one_centre_get_an_answer_without_a_panic() {
    let a = ConvexShape::cuboid(Vec3::new(0.54600525, 0.002367357, 19.301771)).unwrap();
    let b = ConvexShape::cuboid(Vec3::new(0.009604305, 0.042780183, 34593.027)).unwrap();
    let pose_a = dpose([0.0; 3], [H, H, 0.0, 0.0]);
    let pose_b = dpose(
        [0.0; 3],
        [
            0.36909345366058444,
            -0.764721210709482,
            0.4190329135159807,
            0.32153212863761377,
        ],
    );
    let (_, hit) = query::penetration_query(
        &a,
        &pose_a.to_f32(),
        &b,
        &pose_b.to_f32(),
        &GjkConfig::default(),
    );
    assert_eq!(hit.status, PenetrationStatus::Penetrating, "{hit:?}");
}

/// A distance its own witnesses contradict, 12% short (off by 2.9e5, 7.7e-4 of the pair scale 3.8e8): a
/// triangle 4e-15 across, turned half a turn about y, 2.477e6 beyond an edge of a 7e8 x 7e7 x 3e8 box (its
/// z 4 units beyond the face z = -1.52e8). `query` with the triangle as shape A answers 2,182,820 while
/// `witness_b - witness_a` is (20, -2,477,472, 0), right to the last unit; the other order answers 2,477,472.
/// The distance is |v| of the simplex's closest point, projected through a face normal taken from the
/// triangle's 4e-15 edges in coordinates of 1e8 (pure rounding); the witnesses come from the weights.
#[test]
fn a_tiny_triangle_beside_a_huge_box_gets_the_distance_its_witnesses_show() {
    let tiny = ConvexShape::new(
        vec![
            Vec3::new(0.0, 0.0, 3.6297505e-15),
            Vec3::new(0.0, 4.0651656e-15, 0.0),
            Vec3::ZERO,
        ],
        0.0,
    )
    .unwrap();
    let big = ConvexShape::cuboid(Vec3::new(348773020.0, 34877304.0, 152008780.0)).unwrap();
    let pose_tiny = Pose::new(
        Vec3::new(-69448216.0, 37354776.0, -152008784.0),
        Quat::from_xyzw(0.0, 1.0, 0.0, 0.0),
    );
    let r = query::query(
        &tiny,
        &pose_tiny,
        &big,
        &Pose::IDENTITY,
        QueryKind::Distance,
        &GjkConfig::default(),
    );
    // Exact: 2477472 beyond the face y = 34877304, 4 beyond z = -152008780: sqrt(2477472^2 + 4^2).
    let exact = (2477472.0f64.powi(2) + 16.0).sqrt();
    assert!(
        (r.distance as f64 - exact).abs() <= 1e-4 * big.bounding_radius() as f64,
        "{r:?}"
    );
}

/// Two identical boxes at one pose: A - B is a box whose support points line up exactly, and an expansion's
/// new point landed on the extension of a horizon edge, so the face that would close the hole had no area and
/// EPA gave up with `epa_degenerate` (both precisions, CPU and GPU). The face across such an edge is now
/// removed too. Depth: the smallest full extent, 2 x 0.42409742.
#[test]
fn identical_boxes_whose_difference_lines_up_get_their_depth() {
    let half = Vec3::new(11.193635, 0.42409742, 0.80550444);
    let b = ConvexShape::cuboid(half).unwrap();
    for (pose, what) in [
        (Pose::IDENTITY, "at the origin"),
        (
            dpose([2121218.0, 2121218.0, 2121218.0], [0.0, 0.0, 0.0, 1.0]).to_f32(),
            "far away",
        ),
    ] {
        let (_, hit) = query::penetration_query(&b, &pose, &b, &pose, &GjkConfig::default());
        assert_eq!(
            hit.status,
            PenetrationStatus::Penetrating,
            "{what}: {hit:?}"
        );
        assert!(
            (hit.depth - 2.0 * half.y).abs() < 1e-3 * b.bounding_radius(),
            "{what}: {hit:?}"
        );
        assert!(hit.normal.y.abs() > 0.999, "{what}: {hit:?}");
    }
}

/// A point 1.414 from a 2 x 2 x 1.6e-5 slab: float64 GJK ends on a sliver face whose direction is known only
/// to `eps L^2 / h` (3e-12 here), so its bounds met within 3.1e-12 but not within the 32 ulps float32 is held
/// to, and `query_f64` said `unresolved`. Float64 is the last resort and may take the direction's share of
/// the touching tolerance.
#[test]
fn query_f64_certifies_a_point_beside_a_slab_seen_from_its_sliver_face() {
    let slab = ConvexShape::cuboid(Vec3::new(1.0, 1.0, 7.920104e-6)).unwrap();
    let pose_slab = dpose([0.0, 0.0, 1.8530399799346924], [0.0, 0.0, 0.0, 1.0]);
    let pose_point = dpose(
        [0.0, -2.4142136573791504, 1.853044867515564],
        [
            0.0,
            0.6047953610124708,
            0.677628211580776,
            0.4183809008160318,
        ],
    );
    let exact = 1.4142136573791504;
    for (r, order) in [
        (
            query::query_f64(
                &point(),
                &pose_point,
                &slab,
                &pose_slab,
                QueryKind::Distance,
                &GjkConfig::default(),
            ),
            "point first",
        ),
        (
            query::query_f64(
                &slab,
                &pose_slab,
                &point(),
                &pose_point,
                QueryKind::Distance,
                &GjkConfig::default(),
            ),
            "slab first",
        ),
    ] {
        assert_eq!(r.status, GjkStatus::Separated, "{order}: {r:?}");
        assert!((r.distance - exact).abs() < 1e-9, "{order}: {r:?}");
    }
}

/// A point 6079 beside a needle 5.6e8 long and 2.3e-3 wide, both near 9e8 from the origin: float32 cannot
/// certify it, and the float64 repeat on the float32 relative pose ends on a sliver face whose weights put the
/// witnesses 1,200 units (4e-6 of the scale) from where the distance says, failing the drift check meant for
/// float32 and leaving `unresolved`. Float64 may drift by the touching tolerance.
#[test]
fn a_point_beside_a_needle_near_the_coordinate_limit_gets_an_answer() {
    let needle = ConvexShape::cuboid(Vec3::new(0.0011588276, 278526980.0, 1.0)).unwrap();
    let pose_needle = dpose([9e8, -9e8, 9e8], [H, 0.0, 0.0, H]);
    let pose_point = dpose(
        [9e8, -899993920.0, 9e8],
        [
            -0.30976554595238787,
            0.02544808834059941,
            -0.947722216879139,
            -0.07225165032245394,
        ],
    );
    let scale = f64::from(needle.bounding_radius());
    let config = GjkConfig::default();
    let r = query::query(
        &point(),
        &pose_point.to_f32(),
        &needle,
        &pose_needle.to_f32(),
        QueryKind::Distance,
        &config,
    );
    assert_eq!(r.status, GjkStatus::Separated, "{r:?}");
    assert!(
        (f64::from(r.distance) - 6079.0).abs() < 1e-4 * scale,
        "{r:?}"
    );
    let gap = (r.witness_b - r.witness_a - r.normal * r.distance).length();
    assert!(f64::from(gap) < 1e-5 * scale, "witnesses {gap} off: {r:?}");
}
