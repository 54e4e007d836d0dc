//! The text table printed for each (size, kind) group, with the agreement figures under it.

use super::run::Group;
use super::{kind_name, Record};
use crate::text::count_len;
use std::fmt::Write as _;

const HEADERS: [&str; 13] = [
    "backend",
    "pairs/s",
    "speedup vs CPU 1 thread",
    "time (ms)",
    "upload (ms)",
    "wait (ms)",
    "kernel (ms)",
    "readback (ms)",
    "readback GB/s",
    "chunks",
    "host ns/pair",
    "bytes/pair up/down",
    "submits/waits",
];

/// The columns of the default table, which fits the report's 100 columns: indices into [`HEADERS`]. The
/// speedup's header is shortened there, with a line under the table saying what it is against.
const NARROW: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];
const NARROW_SPEEDUP: &str = "speedup";

/// Columns padded to their widest cell: the first left-aligned, the rest (numbers) right-aligned.
pub fn text_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> = cells
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        padded.join(" | ").trim_end().to_string()
    };
    let mut out = line(&mut headers.iter().copied());
    out.push('\n');
    out.push_str(
        &widths
            .iter()
            .map(|&w| "-".repeat(w))
            .collect::<Vec<_>>()
            .join("-|-"),
    );
    out.push('\n');
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
        out.push('\n');
    }
    out
}

/// 1234567.8 -> "1,234,568".
pub fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ms(seconds: Option<f64>) -> String {
    seconds.map_or_else(|| "-".into(), |s| format!("{:.2}", s * 1e3))
}

fn row(record: &Record) -> Vec<String> {
    let gpu = record.backend == "gpu";
    vec![
        record.label(),
        thousands(record.pairs_per_s),
        format!("{:.2}x", record.speedup_vs_cpu1),
        ms(Some(record.total_s)),
        ms(record.upload_s),
        ms(record.compute_s),
        if gpu && record.kernel_s.is_none() {
            "n/a".into()
        } else {
            ms(record.kernel_s)
        },
        ms(record.readback_s),
        record
            .readback_gb_s
            .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
        record.chunks.map_or_else(|| "-".into(), |c| c.to_string()),
        match (gpu, record.host_ns_per_pair) {
            (false, _) => "-".into(),
            (true, None) => "n/a".into(),
            (true, Some(ns)) => format!("{ns:.1}"),
        },
        match (record.bytes_up_per_pair, record.bytes_down_per_pair) {
            (Some(up), Some(down)) => format!("{up:.1}/{down:.1}"),
            _ => "-".into(),
        },
        match (record.submissions, record.blocking_waits) {
            (Some(s), Some(w)) => format!("{s}/{w}"),
            _ => "-".into(),
        },
    ]
}

/// The group's heading, table and agreement lines: the full table when `wide`, else the columns that fit
/// 100 columns.
pub fn render_group(group: &Group, wide: bool) -> String {
    let mut out = String::new();
    let runs = group.records.first().map_or(1, |r| r.runs);
    let _ = writeln!(
        out,
        "\n== {} ({} instances), {} queries, best of {} per backend ==",
        count_len(group.pairs, "pair"),
        group.instances,
        kind_name(group.kind),
        count_len(runs, "run"),
    );
    let rows: Vec<Vec<String>> = group.records.iter().map(row).collect();
    if wide {
        out.push_str(&text_table(&HEADERS, &rows));
    } else {
        let mut headers: Vec<&str> = NARROW.iter().map(|&k| HEADERS[k]).collect();
        headers[2] = NARROW_SPEEDUP;
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|row| NARROW.iter().map(|&k| row[k].clone()).collect())
            .collect();
        out.push_str(&text_table(&headers, &rows));
        out.push_str(
            "speedup: vs CPU 1 thread; --wide adds readback, chunks, host ns/pair, bytes/pair, submits/waits\n",
        );
    }
    if let Some(warning) = noisy_cpu_warning(&group.records) {
        out.push_str(&warning);
        out.push('\n');
    }
    for gpu in group.records.iter().filter(|r| r.backend == "gpu") {
        if let (Some(kernel), Some(bytes)) = (gpu.epa_kernel, gpu.epa_private_bytes) {
            let _ = writeln!(
                out,
                "GPU (EPA {kernel}): {bytes} private bytes per invocation of the EPA kernel (naga)"
            );
        }
        if let (Some(scan), Some(pairs)) = (gpu.scan_kernel, gpu.subgroup_pairs) {
            let _ = writeln!(
                out,
                "GPU (scan {scan}): {} pairs answered one subgroup per pair",
                thousands(pairs as f64)
            );
        }
    }
    if let Some(gpu) = group.records.iter().find(|r| r.backend == "gpu") {
        if gpu.kernel_s.is_none() {
            out.push_str("kernel time: timestamp queries not supported by this adapter\n");
        }
        if let Some(work) = &gpu.gpu_work {
            let _ = writeln!(
                out,
                "GPU work per 32 pairs (counting run): SIMT efficiency {:.3} of GJK steps, {:.3} of support \
                 reads; {:.1} hull points read a support call",
                work.simt_gjk_steps, work.simt_support_reads, work.vertex_reads_per_support
            );
            if let (Some(simt), Some(mean)) = (work.simt_epa_steps, work.epa_steps_per_pair) {
                let _ = writeln!(
                    out,
                    "GPU EPA work per 32 pairs through EPA (counting run): SIMT efficiency {simt:.3} of \
                     expansions; {mean:.2} expansions a pair"
                );
            }
            if let Some(ceiling) = work.host_ceiling_pairs_per_s {
                let _ = writeln!(
                    out,
                    "host's ceiling (the same batch through a kernel that does no work): {ceiling:.0} pairs/s"
                );
            }
        }
    }
    let cpu = &group.cpu_all_report;
    let _ = writeln!(
        out,
        "CPU all threads vs CPU 1 thread: {} flag and {} distance differences on {}",
        cpu.flag_disagreements,
        cpu.distance_disagreements,
        count_len(cpu.pairs, "pair")
    );
    if let Some(report) = &group.gpu_report {
        let _ = writeln!(
            out,
            "GPU vs CPU 1 thread ({}):",
            if report.is_clean() {
                "clean"
            } else {
                "DISAGREEMENT"
            }
        );
        for line in report.summary().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(p) = &group.cpu_all_penetration {
        let _ = writeln!(
            out,
            "CPU all threads vs CPU 1 thread, penetration: {} depth, {} normal and {} status differences",
            p.depth_disagreements, p.normal_disagreements, p.status_disagreements
        );
    }
    if let Some(p) = &group.gpu_penetration {
        if let Some(epa) = group
            .records
            .iter()
            .find(|r| r.backend == "gpu")
            .and_then(|r| r.epa_pairs)
        {
            let _ = writeln!(
                out,
                "GPU EPA pass: {epa} of {} (cores overlapping); the rest answered by GJK alone",
                count_len(group.pairs, "pair")
            );
        }
        let _ = writeln!(
            out,
            "GPU vs CPU 1 thread, penetration ({}):",
            if p.is_clean() {
                "clean"
            } else {
                "DISAGREEMENT"
            }
        );
        for line in p.summary().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// A warning when the CPU row on all threads answered fewer pairs per second than the one on a single
/// thread: more threads cannot be slower on an idle machine with the cores to run them, so the CPU rows
/// (and every speedup, which is against CPU 1 thread) are not to be trusted.
pub fn noisy_cpu_warning(records: &[Record]) -> Option<String> {
    let one = records.iter().find(|r| r.backend == "cpu1")?;
    let all = records
        .iter()
        .find(|r| r.backend == "cpu_all" && r.threads.is_some_and(|n| n > 1))?;
    (all.pairs_per_s < one.pairs_per_s).then(|| {
        format!(
            "warning: the CPU rows are noisy: {} answered fewer pairs per second than CPU 1 thread ({:.2}x); \
             the machine is busy, has fewer free cores than threads, or the batch is too small to share \
             between threads (try --repeat 5 on an idle machine, or more --pairs)",
            all.label(),
            all.speedup_vs_cpu1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_alignment() {
        assert_eq!(thousands(1_234_567.8), "1,234,568");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1000.0), "1,000");
        let t = text_table(&["a", "bb"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "a   | bb\n----|---\nxyz |  1\n");
    }

    fn cpu_record(backend: &'static str, threads: usize, rate: f64) -> Record {
        let mut r = crate::bench::chart::tests::record(1000, backend, rate);
        r.threads = Some(threads);
        r.speedup_vs_cpu1 = rate / 1e6;
        r
    }

    #[test]
    fn slower_cpu_threads_are_named_noisy() {
        let fast = [cpu_record("cpu1", 1, 1e6), cpu_record("cpu_all", 8, 4e6)];
        assert_eq!(noisy_cpu_warning(&fast), None);
        let slow = [cpu_record("cpu1", 1, 1e6), cpu_record("cpu_all", 2, 5e5)];
        let warning = noisy_cpu_warning(&slow).unwrap();
        assert!(
            warning.starts_with("warning: the CPU rows are noisy"),
            "{warning}"
        );
        assert!(
            warning.contains("CPU 2 threads") && warning.contains("0.50x"),
            "{warning}"
        );
        // One core: the all-threads row is one thread too, and no comparison is made.
        let single = [cpu_record("cpu1", 1, 1e6), cpu_record("cpu_all", 1, 5e5)];
        assert_eq!(noisy_cpu_warning(&single), None);
    }
}
