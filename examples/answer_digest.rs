//! A digest of every answer field the CPU paths give, over three families of pairs (a random mix, the hostile
//! set, big hulls against boxes and each other), both orders of A and B: the float32 answers of every kind, the
//! bare ones, penetration, the front door in float32 and float64, and the CPU batches. A change that must keep
//! every answer's bits prints the same digests before and after.
//!
//! `cargo run --release --example answer_digest`
use glam::{DVec3, Quat, Vec3};
use gpu_gjk::scenario::{hostile_scene, random_scene, MixSpec};
use gpu_gjk::{ConvexShape, GjkConfig, GjkResult, Instance, Pose, QueryKind};

struct Digest(u64, usize);
impl Digest {
    fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325, 0)
    }
    fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
    fn f32(&mut self, v: f32) {
        self.u64(v.to_bits() as u64)
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits())
    }
    fn v3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z)
    }
    fn d3(&mut self, v: DVec3) {
        self.f64(v.x);
        self.f64(v.y);
        self.f64(v.z)
    }
    fn gjk(&mut self, r: &GjkResult<f32>) {
        self.u64(r.status as u64);
        self.u64(r.intersecting as u64);
        self.f32(r.distance);
        self.v3(r.witness_a);
        self.v3(r.witness_b);
        self.v3(r.normal);
        self.u64(r.iterations as u64);
        self.1 += 1;
    }
}

fn big_hulls() -> (Vec<ConvexShape>, Vec<Instance>, Vec<[u32; 2]>) {
    let sphere =
        ConvexShape::hull(&gpu_gjk::scenario::mesh_gen::fibonacci_sphere(1000), 0.0).unwrap();
    let cube = ConvexShape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap();
    let round =
        ConvexShape::hull(&gpu_gjk::scenario::mesh_gen::fibonacci_sphere(300), 0.1).unwrap();
    let shapes = vec![sphere, cube, round];
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    let mut s = 12345u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 33) as f32) / (1u64 << 31) as f32
    };
    for k in 0..600u32 {
        let a = k % 3;
        let b = (k / 3) % 3;
        let pa = Pose::new(
            Vec3::new(next() * 4.0 - 2.0, next() * 4.0 - 2.0, next() * 4.0 - 2.0),
            Quat::from_euler(
                glam::EulerRot::XYZ,
                next() * 6.0,
                next() * 6.0,
                next() * 6.0,
            ),
        );
        let off = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * (0.5 + 2.5 * next());
        let pb = Pose::new(
            pa.position + off,
            Quat::from_euler(
                glam::EulerRot::XYZ,
                next() * 6.0,
                next() * 6.0,
                next() * 6.0,
            ),
        );
        instances.push(Instance { shape: a, pose: pa });
        instances.push(Instance { shape: b, pose: pb });
        pairs.push([2 * k, 2 * k + 1]);
    }
    (shapes, instances, pairs)
}

fn family(name: &str, shapes: &[ConvexShape], instances: &[Instance], pairs: &[[u32; 2]]) {
    let config = GjkConfig::default();
    let mut d = Digest::new();
    for &[i, j] in pairs {
        for (ia, ib) in [(i, j), (j, i)] {
            let (x, y) = (&instances[ia as usize], &instances[ib as usize]);
            let (a, b) = (&shapes[x.shape as usize], &shapes[y.shape as usize]);
            for kind in [QueryKind::Distance, QueryKind::Intersection] {
                d.gjk(&one_query(a, &x.pose, b, &y.pose, kind, &config));
                let bare = one_bare(a, &x.pose, b, &y.pose, kind, &config);
                d.u64(bare.0 as u64);
                d.u64(bare.1 as u64);
                d.f32(bare.2);
                d.u64(bare.3 as u64);
            }
            let (g, p) = one_penetration(a, &x.pose, b, &y.pose, &config);
            d.gjk(&g);
            let bits = p.to_bits();
            let first_six = (bits.0, bits.1, bits.2, bits.3, bits.4, bits.5);
            d.u64(format!("{first_six:?}").len() as u64);
            d.u64(bits.0 as u64);
            d.u64(bits.1 as u64);
            for c in bits.2.iter().chain(&bits.3).chain(&bits.4) {
                d.u64(*c as u64)
            }
            d.u64(bits.5 as u64);
            // Only a non-converged answer has a bound: converged answers hash as they did before it.
            if let Some(upper) = bits.6 {
                d.u64(upper as u64);
            }
            let (wd, wp) = world_f64(a, &x.pose.to_f64(), b, &y.pose.to_f64(), &config);
            d.f64(wd.0);
            d.d3(wd.1);
            d.d3(wd.2);
            d.f64(wp.0);
            d.d3(wp.1);
            d.d3(wp.2);
            d.d3(wp.3);
            let w = world_f32(a, &x.pose.to_f64(), b, &y.pose.to_f64());
            d.f64(w.0);
            d.d3(w.1);
            d.d3(w.2);
            d.d3(w.3);
        }
    }
    let q = gpu_gjk::batch::query_batch(
        shapes,
        instances,
        pairs,
        QueryKind::Distance,
        &config,
        gpu_gjk::batch::Threads::Single,
    )
    .unwrap();
    for r in &q {
        d.gjk(r)
    }
    let pen = gpu_gjk::batch::penetration_batch(
        shapes,
        instances,
        pairs,
        &config,
        gpu_gjk::batch::Threads::Single,
    )
    .unwrap();
    for (g, p) in pen.0.iter().zip(&pen.1) {
        d.gjk(g);
        let bits = p.to_bits();
        d.u64(bits.1 as u64);
        for c in bits.2.iter().chain(&bits.3).chain(&bits.4) {
            d.u64(*c as u64)
        }
        if let Some(upper) = bits.6 {
            d.u64(upper as u64);
        }
    }
    println!("{name}: {} answers, digest {:016x}", d.1, d.0);
}

fn main() {
    let mix = random_scene(7, 4000, &MixSpec::default());
    family("mix", &mix.shapes, &mix.instances, &mix.pairs);
    let hostile = hostile_scene(3);
    family(
        "hostile",
        &hostile.shapes,
        &hostile.instances,
        &hostile.pairs,
    );
    let (s, i, p) = big_hulls();
    family("big_hulls", &s, &i, &p);
}
use gpu_gjk::epa::Penetration;
use gpu_gjk::query::advanced::{answer_relative, AnswerKind};
use gpu_gjk::query::{PairInput, Precision, QueryOptions};
use gpu_gjk::{DPose, GjkStatus, RelativePose};
fn opts(config: &GjkConfig, witnesses: bool) -> QueryOptions<'static> {
    QueryOptions {
        config: *config,
        witnesses,
        ..QueryOptions::default()
    }
}
fn one_query(
    a: &ConvexShape,
    pa: &Pose,
    b: &ConvexShape,
    pb: &Pose,
    kind: QueryKind,
    c: &GjkConfig,
) -> GjkResult<f32> {
    answer_relative(
        a,
        b,
        &RelativePose::between_f32(pa, pb),
        AnswerKind::of(kind),
        opts(c, true),
    )
    .0
}
fn one_bare(
    a: &ConvexShape,
    pa: &Pose,
    b: &ConvexShape,
    pb: &Pose,
    kind: QueryKind,
    c: &GjkConfig,
) -> (GjkStatus, bool, f32, u32) {
    let r = answer_relative(
        a,
        b,
        &RelativePose::between_f32(pa, pb),
        AnswerKind::of(kind),
        opts(c, false),
    )
    .0;
    (r.status, r.intersecting, r.distance, r.iterations)
}
fn one_penetration(
    a: &ConvexShape,
    pa: &Pose,
    b: &ConvexShape,
    pb: &Pose,
    c: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let (g, p) = answer_relative(
        a,
        b,
        &RelativePose::between_f32(pa, pb),
        AnswerKind::Penetration,
        opts(c, true),
    );
    (g, p.unwrap())
}
/// The float64 distance answer (distance, witnesses) and penetration answer (depth, normal, contacts).
type WorldF64 = ((f64, DVec3, DVec3), (f64, DVec3, DVec3, DVec3));

fn world_f64(a: &ConvexShape, pa: &DPose, b: &ConvexShape, pb: &DPose, c: &GjkConfig) -> WorldF64 {
    let input = PairInput::new(a, *pa, b, *pb);
    let o = || QueryOptions {
        precision: Precision::Float64,
        ..opts(c, true)
    };
    let r = gpu_gjk::distance(&input, o());
    let (_, p) = gpu_gjk::penetration(&input, o());
    (
        (r.distance, r.witness_a, r.witness_b),
        (p.depth, p.normal, p.contact_a, p.contact_b),
    )
}
fn world_f32(
    a: &ConvexShape,
    pa: &DPose,
    b: &ConvexShape,
    pb: &DPose,
) -> (f64, DVec3, DVec3, DVec3) {
    let r = gpu_gjk::distance(&PairInput::new(a, *pa, b, *pb), QueryOptions::default());
    (r.distance, r.witness_a, r.witness_b, r.normal)
}
