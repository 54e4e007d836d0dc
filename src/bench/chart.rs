//! The scaling chart: throughput (pairs/s) against pairs per batch, both on log axes, one line per backend
//! (and query kind). SVG only: the SVG backend writes text as `<text>` elements, so no font files or system
//! libraries are needed to build or run it.

use super::run::BenchOutcome;
use plotters::prelude::*;

type Series = (String, Vec<(f64, f64)>);

/// Distinct, readable line colours (the "tab10" set), one per series in measuring order.
const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// The points of each series, in the order the backends were measured.
fn series(outcome: &BenchOutcome) -> Vec<Series> {
    let kinds = {
        let mut k: Vec<&str> = outcome.records().map(|r| r.kind).collect();
        k.sort_unstable();
        k.dedup();
        k.len()
    };
    let mut out: Vec<Series> = Vec::new();
    for r in outcome.records() {
        let name = if kinds > 1 {
            format!("{} ({})", r.label(), r.kind)
        } else {
            r.label()
        };
        let point = (r.pairs as f64, r.pairs_per_s.max(f64::MIN_POSITIVE));
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, points)) => points.push(point),
            None => out.push((name, vec![point])),
        }
    }
    out
}

/// A log range around the values, widened so a single value still spans a range.
fn log_range(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(0.0, f64::max);
    if !lo.is_finite() || hi <= 0.0 {
        return (1.0, 10.0);
    }
    (lo / 2.0, hi * 2.0)
}

/// Renders the chart as SVG text.
pub fn render_chart(outcome: &BenchOutcome, title: &str) -> anyhow::Result<String> {
    let series = series(outcome);
    let points = series.iter().flat_map(|(_, p)| p.iter().copied());
    let (x0, x1) = log_range(points.clone().map(|p| p.0));
    let (y0, y1) = log_range(points.map(|p| p.1));
    // An empty decade on top keeps the upper-left legend clear of the lines.
    let y1 = y1 * 5.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("pairs per batch (log scale)")
            .y_desc("throughput, pairs/s (log scale)")
            .x_label_formatter(&|x| format!("{x:.0e}"))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()?;
        for (i, (name, points)) in series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            // Points as well as lines: a run of one size has no line to draw.
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::run::Group;
    use crate::bench::{BenchKind, Record};
    use crate::gjk::QueryKind;

    pub(crate) fn record(pairs: usize, backend: &'static str, rate: f64) -> Record {
        Record {
            pairs,
            kind: "distance",
            backend,
            adapter: "cpu".into(),
            software_adapter: false,
            threads: Some(2),
            runs: 1,
            pairs_per_s: rate,
            total_s: pairs as f64 / rate,
            speedup_vs_cpu1: 1.0,
            upload_s: None,
            compute_s: None,
            kernel_s: None,
            readback_s: None,
            readback_gb_s: None,
            chunks: None,
            host_ns_per_pair: None,
            bytes_up_per_pair: None,
            bytes_down_per_pair: None,
            submissions: None,
            blocking_waits: None,
            chunks_in_flight: None,
            scene_groups: None,
            flag_disagreements: None,
            distance_disagreements: None,
            max_distance_error: None,
            epa_pairs: None,
            max_depth_error: None,
            max_normal_angle: None,
            penetration_failures: None,
            gpu_failures: None,
            clean: None,
            gpu_work: None,
            epa_kernel: None,
            scan_kernel: None,
            subgroup_pairs: None,
            epa_private_bytes: None,
        }
    }

    #[test]
    fn one_line_per_backend_with_a_legend() {
        let groups = [1_000, 10_000]
            .into_iter()
            .map(|n| Group {
                pairs: n,
                instances: 2 * n,
                kind: BenchKind::Query(QueryKind::Distance),
                records: vec![record(n, "cpu1", 1e6), record(n, "gpu", 2e5)],
                cpu_all_report: Default::default(),
                gpu_report: None,
                cpu_all_penetration: None,
                gpu_penetration: None,
            })
            .collect();
        let outcome = BenchOutcome { groups };
        let s = series(&outcome);
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].0, "GPU");
        assert_eq!(s[1].1, vec![(1e3, 2e5), (1e4, 2e5)]);
        let svg = render_chart(&outcome, "test").unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("CPU 1 thread"));
        // Both axes are labelled with their units; the y axis's label runs up its side.
        assert!(svg.contains("pairs per batch (log scale)"));
        let y_label = svg
            .find("throughput, pairs/s (log scale)")
            .expect("a y axis label");
        let element = &svg[svg[..y_label].rfind("<text").unwrap()..y_label];
        assert!(element.contains("rotate(270"), "{element}");
    }
}
