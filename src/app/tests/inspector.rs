//! The inspector compares the GPU's answer with the CPU's as the live check does: on every line of the README's
//! sample file it flags no difference, although the CPU answers the sphere-capsule line in closed form (0
//! iterations) where the GPU runs a GJK iteration.

use super::{context, exclusive};
use crate::app::inspector::screenshot::gpu_answer;
use crate::app::inspector::{InspectedPair, Inspector};
use crate::gjk::GjkConfig;
use crate::io::jsonl::parse_line;
use crate::one_pair::trace_penetration;
use crate::pose::RelativePose;

#[test]
fn the_inspector_flags_no_difference_on_the_sample_pairs() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/pairs.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let Ok(pair) = parse_line(line.as_bytes()) else {
            continue;
        };
        let (a, b) = (pair.a.shape.as_ref().clone(), pair.b.shape.as_ref().clone());
        let relative = RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose);
        let trace = trace_penetration(&a, &b, &relative, &GjkConfig::default());
        let gpu = gpu_answer(ctx, &a, &b, &relative);
        let inspector = Inspector::new(InspectedPair {
            label: format!("line {}", n + 1),
            a,
            b,
            relative,
            frame: pair.a.pose.folded(),
            trace,
            epa_trace: None,
            gpu,
            flat: false,
        });
        assert_eq!(
            inspector.gpu_agrees(),
            Some(true),
            "line {}: {:?} against {:?}",
            n + 1,
            inspector.pair.gpu,
            inspector.cpu_answer()
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} lines parsed");
}
