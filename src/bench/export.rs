//! All measured figures as JSON (with the run's settings) or CSV (one row per record), for docs/benchmarks.md and
//! for comparing machines.

use super::run::BenchOutcome;
use super::{BenchSpec, Record};
use crate::scenario::ShapeKind;

/// `{"seed", "shapes", "max_hull_points", "raw_scan", "binning", "repeat", "statistic": "best", "records": [...]}`, pretty-printed.
pub fn to_json(spec: &BenchSpec, outcome: &BenchOutcome) -> String {
    let records: Vec<&Record> = outcome.records().collect();
    let value = serde_json::json!({
        "seed": spec.seed,
        "shapes": spec.shapes.0.iter().map(|k: &ShapeKind| k.name()).collect::<Vec<_>>(),
        "max_hull_points": spec.max_hull_points,
        "raw_scan": spec.raw_scan,
        "binning": spec.binning,
        "epa_kernels": spec.epa_kernels.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "scan_kernels": spec.scan_kernels.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "shader_checks": spec.shader_checks.name(),
        "repeat": spec.repeat,
        "statistic": "best",
        "clean": outcome.is_clean(),
        "records": records,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("records serialise");
    text.push('\n');
    text
}

const CSV_HEADER: &str = "pairs,kind,backend,adapter,software_adapter,threads,runs,pairs_per_s,total_s,\
speedup_vs_cpu1,upload_s,compute_s,kernel_s,readback_s,readback_gb_s,chunks,host_ns_per_pair,bytes_up_per_pair,\
bytes_down_per_pair,submissions,blocking_waits,chunks_in_flight,scene_groups,flag_disagreements,distance_disagreements,\
max_distance_error,epa_pairs,max_depth_error,max_normal_angle,penetration_failures,gpu_failures,clean";

/// RFC 4180 quoting: adapter names contain commas and parentheses.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(String::new, |v| v.to_string())
}

/// A header line and one line per record; a missing value (CPU rows' GPU split, no timestamps) is empty.
pub fn to_csv(outcome: &BenchOutcome) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in outcome.records() {
        let fields = [
            r.pairs.to_string(),
            r.kind.to_string(),
            r.backend.to_string(),
            quote(&r.adapter),
            r.software_adapter.to_string(),
            opt(r.threads),
            r.runs.to_string(),
            format!("{:.1}", r.pairs_per_s),
            r.total_s.to_string(),
            format!("{:.4}", r.speedup_vs_cpu1),
            opt(r.upload_s),
            opt(r.compute_s),
            opt(r.kernel_s),
            opt(r.readback_s),
            opt(r.readback_gb_s),
            opt(r.chunks),
            opt(r.host_ns_per_pair),
            opt(r.bytes_up_per_pair),
            opt(r.bytes_down_per_pair),
            opt(r.submissions),
            opt(r.blocking_waits),
            opt(r.chunks_in_flight),
            opt(r.scene_groups),
            opt(r.flag_disagreements),
            opt(r.distance_disagreements),
            opt(r.max_distance_error),
            opt(r.epa_pairs),
            opt(r.max_depth_error),
            opt(r.max_normal_angle),
            opt(r.penetration_failures),
            opt(r.gpu_failures),
            opt(r.clean),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quote("cpu"), "cpu");
        assert_eq!(quote("llvmpipe (gl, Cpu)"), "\"llvmpipe (gl, Cpu)\"");
        assert_eq!(quote("a\"b"), "\"a\"\"b\"");
        assert_eq!(CSV_HEADER.split(',').count(), 32);
    }
}
