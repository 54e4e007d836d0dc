//! The HUD's rows as text: what each figure is called and how it is written, decided here once so the layout,
//! the `--frames` summary and the tests read the same rows. A row means the same thing in every mode: GPU time
//! comes from timestamp queries, host time is called host time and says what it covered, and the rows about
//! the GPU (and the GPU-vs-CPU check) are left out while the CPU is the narrow phase.

use super::{format_bytes, format_count, speedup, HudStats};

/// How a row's value is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// The GPU's time (the chart's green line).
    Gpu,
    /// The CPU's time (the chart's orange line).
    Cpu,
    /// Something that is a bug when not zero (disagreements).
    Alert,
}

/// One row: a label, a value, and what hovering the label explains.
#[derive(Clone, Debug, PartialEq)]
pub struct HudRow {
    pub label: &'static str,
    pub value: String,
    pub tone: Tone,
    pub hover: String,
}

impl HudRow {
    fn new(label: &'static str, value: impl Into<String>) -> Self {
        Self {
            label,
            value: value.into(),
            tone: Tone::Plain,
            hover: String::new(),
        }
    }

    fn tone(mut self, tone: Tone) -> Self {
        self.tone = tone;
        self
    }

    fn hover(mut self, hover: impl Into<String>) -> Self {
        self.hover = hover.into();
        self
    }
}

/// Labels of the rows that exist only while the GPU is the narrow phase.
pub const GPU_TIME: &str = "GPU time ms";
pub const GPU_MOTION_TIME: &str = "GPU motion ms";
pub const GPU_GRID_TIME: &str = "GPU grid ms";
pub const HOST_ROUND_TRIP: &str = "Host round trip ms";
pub const HOST_SUBMIT: &str = "Host submit ms";
pub const CPU_CHECK: &str = "CPU check ms";
pub const SPEEDUP_GPU_TIME: &str = "Speedup vs GPU time";
pub const SPEEDUP_ROUND_TRIP: &str = "Speedup vs round trip";
pub const SPEEDUP_NONE: &str = "Speedup vs GPU";
pub const DISAGREEMENTS_LAST: &str = "GPU≠CPU, last check";
pub const DISAGREEMENTS_TOTAL: &str = "GPU≠CPU, since start";
pub const GPU_FAILURES: &str = "GPU failed, CPU redid";
pub const WARM_START: &str = "CPU warm start";
pub const CPU_NARROW: &str = "CPU narrow ms";
pub const FPS: &str = "FPS";
pub const BYTES_UP: &str = "Bytes up";
pub const BYTES_DOWN: &str = "Bytes down";
pub const SUBMISSIONS: &str = "Submissions";
pub const BLOCKING_WAITS: &str = "Blocking waits";
pub const BROAD_OVERFLOWS: &str = "Pair buffer overflows";

/// Every label that names the GPU's work or the check against it: none may show in the CPU mode.
#[cfg(test)]
pub const GPU_ONLY: [&str; 11] = [
    GPU_TIME,
    HOST_ROUND_TRIP,
    HOST_SUBMIT,
    CPU_CHECK,
    SPEEDUP_GPU_TIME,
    SPEEDUP_ROUND_TRIP,
    SPEEDUP_NONE,
    DISAGREEMENTS_LAST,
    DISAGREEMENTS_TOTAL,
    GPU_FAILURES,
    WARM_START,
];

/// Milliseconds with two decimals, or a dash.
fn ms(t: Option<f64>) -> String {
    t.filter(|t| t.is_finite())
        .map_or_else(|| "—".to_owned(), |t| format!("{t:.2}"))
}

fn ratio(value: Option<f64>) -> String {
    value.map_or_else(
        || "—".to_owned(),
        |s| format!("{:.*}x", if s < 10.0 { 2 } else { 1 }, s),
    )
}

/// The FPS row's value from the one measured rate: "59.9 (16.7 ms)", the rate and the mean time per frame, or a
/// dash before two frames.
/// Both numbers come from the same rate, so they cannot disagree.
pub fn fps_text(fps: f64) -> String {
    if fps.is_finite() && fps > 0.0 {
        // Two decimals below 10 FPS keep the rate as precise as the frame time written beside it.
        let decimals = if fps < 10.0 { 2 } else { 1 };
        format!("{fps:.decimals$} ({:.1} ms)", 1e3 / fps)
    } else {
        "—".to_owned()
    }
}

/// The CPU check's GJK iterations (warm-started per pair) against the GPU's on the same pairs (cold):
/// "-8.1% iterations", or a dash before the first check. The counts go to the hover text.
pub fn warm_start(cpu_warm: u64, gpu_cold: u64) -> String {
    if gpu_cold == 0 {
        return "—".to_owned();
    }
    let change = 100.0 * (cpu_warm as f64 / gpu_cold as f64 - 1.0);
    format!("{change:+.1}% iterations")
}

/// The rows for one frame, in the order shown.
pub fn rows(stats: &HudStats) -> Vec<HudRow> {
    let count = |n: usize| format_count(n as u64);
    let mut rows = vec![
        HudRow::new("Bodies", count(stats.bodies)),
        HudRow::new("Candidate pairs", count(stats.candidate_pairs)),
        HudRow::new("Colliding pairs", count(stats.colliding_pairs)),
        HudRow::new("Query", stats.query_mode),
        HudRow::new("Broad phase ms", format!("{:.2}", stats.broad_phase_ms)).hover(
            if stats.traffic.broad_on_gpu {
                "the broad phase's uniform grid on the GPU, host time (and reading its pair count back)"
            } else {
                "the broad phase's uniform grid on the CPU"
            },
        ),
    ];
    if stats.gpu_narrow_phase {
        gpu_rows(stats, &mut rows);
    } else {
        rows.push(
            HudRow::new(CPU_NARROW, ms(stats.cpu_narrow_ms))
                .tone(Tone::Cpu)
                .hover("the CPU narrow phase on every candidate pair, all threads"),
        );
    }
    let view = format!(
        "{}, {}",
        stats.player_shape,
        if stats.wireframe {
            "wireframe"
        } else {
            "solid"
        }
    );
    rows.extend([
        HudRow::new(FPS, fps_text(stats.fps)).hover(
            "frames drawn in the last second of wall time, and the mean time per frame (1000 / FPS)",
        ),
        HudRow::new(
            "Adapter, backend",
            format!("{}, {}", stats.adapter, stats.backend),
        ),
        HudRow::new("Narrow phase", stats.narrow_phase).hover("G switches GPU and CPU"),
        HudRow::new("Player, view", view).hover("1-4 the player's shape, V wireframes"),
        HudRow::new("Response", stats.response).hover("R cycles the collision response: off, push-apart, physics"),
    ]);
    rows
}

/// The frame's bus rows, in their own section of the panel: what the broad and narrow phases moved across the
/// bus, how often the host went to the GPU, and (with the GPU broad phase) whether its pair buffer overflowed.
/// The candidate pairs are the main grid's.
pub fn traffic_rows(stats: &HudStats) -> Vec<HudRow> {
    let t = &stats.traffic;
    let bytes = |label, n: u64, what: &str| {
        HudRow::new(label, format_bytes(n)).hover(format!(
            "{} bytes the broad and narrow phases {what} this frame (not the renderer's)",
            format_count(n)
        ))
    };
    let mut rows = vec![
        bytes(BYTES_UP, t.bytes_up, "wrote to the GPU"),
        bytes(BYTES_DOWN, t.bytes_down, "read back from it"),
        HudRow::new(SUBMISSIONS, format_count(u64::from(t.submissions)))
            .hover("queue submissions of the broad and narrow phases this frame"),
        HudRow::new(BLOCKING_WAITS, format_count(u64::from(t.blocking_waits)))
            .hover("times this frame's host blocked waiting for the GPU's broad or narrow phase"),
    ];
    if t.broad_on_gpu {
        rows.push(
            HudRow::new(BROAD_OVERFLOWS, format_count(u64::from(t.broad_overflows))).hover(
                "times the candidate pairs outgrew the GPU broad phase's pair buffer: counted and the buffer \
                 grown; a frame read back on the host runs its broad phase again, one fed on the device \
                 answers the pairs that fit and the next frame holds them all",
            ),
        );
    }
    if let Some([motion, grid]) = stats.gpu_scene_ms.filter(|_| t.broad_on_gpu) {
        let pass = |label, t, what: &str| {
            HudRow::new(label, ms(Some(t))).tone(Tone::Gpu).hover(format!(
                "{what} on the GPU, from timestamp queries (the latest checked frame whose bodies moved \
                 on the GPU)"
            ))
        };
        rows.push(pass(
            GPU_MOTION_TIME,
            motion,
            "the pass that moves the bodies",
        ));
        rows.push(pass(GPU_GRID_TIME, grid, "the GPU broad phase's grid pass"));
    }
    rows
}

/// The GPU's times, the speedup over the CPU check, and the check's counts.
fn gpu_rows(stats: &HudStats, rows: &mut Vec<HudRow>) {
    if stats.gpu_timestamps {
        rows.push(
            HudRow::new(GPU_TIME, ms(stats.gpu_kernel_ms))
                .tone(Tone::Gpu)
                .hover("the narrow phase's passes on the GPU, from timestamp queries"),
        );
    }
    let host_tone = if stats.gpu_timestamps {
        Tone::Plain
    } else {
        Tone::Gpu
    };
    rows.push(if stats.gpu_deferred {
        HudRow::new(HOST_SUBMIT, ms(stats.gpu_narrow_ms))
            .tone(host_tone)
            .hover(
                "host time submitting this frame's batch and collecting the last one; the frame did not \
                 wait for its answers (no overlay, pick or inspector needs them), so this is not GPU time",
            )
    } else {
        HudRow::new(HOST_ROUND_TRIP, ms(stats.gpu_narrow_ms))
            .tone(host_tone)
            .hover("host time uploading, dispatching, waiting for and reading back the batch")
    });
    rows.push(
        HudRow::new(CPU_CHECK, ms(stats.cpu_narrow_ms))
            .tone(Tone::Cpu)
            .hover("the CPU reference on the same pairs, all threads (the latest check)"),
    );
    rows.push(if stats.gpu_timestamps {
        HudRow::new(
            SPEEDUP_GPU_TIME,
            ratio(speedup(stats.cpu_narrow_ms, stats.gpu_kernel_ms)),
        )
        .hover("the CPU check's time over the GPU's time (timestamp queries): compute against compute")
    } else if !stats.gpu_deferred {
        HudRow::new(
            SPEEDUP_ROUND_TRIP,
            ratio(speedup(stats.cpu_narrow_ms, stats.gpu_narrow_ms)),
        )
        .hover(
            "the CPU check's time over the GPU's round trip (this adapter has no timestamp queries): \
             answers on the host on both sides",
        )
    } else {
        HudRow::new(SPEEDUP_NONE, "— (no GPU time here)").hover(
            "this adapter has no timestamp queries and the frame did not wait for the GPU, so no time \
             of the GPU's is known to compare with",
        )
    });
    let alert = |n: u64| if n > 0 { Tone::Alert } else { Tone::Plain };
    rows.push(
        HudRow::new(
            DISAGREEMENTS_LAST,
            format_count(stats.disagreements_frame as u64),
        )
        .tone(alert(stats.disagreements_frame as u64))
        .hover(
            "pairs the GPU and the CPU answered differently in the latest check (M flies to one)",
        ),
    );
    rows.push(
        HudRow::new(DISAGREEMENTS_TOTAL, format_count(stats.disagreements_total))
            .tone(alert(stats.disagreements_total))
            .hover("disagreements over every checked frame"),
    );
    rows.push(
        HudRow::new(GPU_FAILURES, format_count(stats.gpu_failures_total)).hover(
            "pairs the GPU answered with a failure status since start, answered again on the CPU",
        ),
    );
    rows.push(
        HudRow::new(
            WARM_START,
            warm_start(stats.gjk_iterations_cpu_warm, stats.gjk_iterations_gpu_cold),
        )
        .hover(format!(
            "GJK iterations of the CPU check (warm-started from the last checked frame): {}, against the \
             GPU's on the same pairs (cold): {}",
            format_count(stats.gjk_iterations_cpu_warm),
            format_count(stats.gjk_iterations_gpu_cold)
        )),
    );
}

/// The rows as `[label, value]` pairs, the main grid's and then the bus section's, for the `--frames` summary.
pub fn row_texts(stats: &HudStats) -> Vec<[String; 2]> {
    rows(stats)
        .into_iter()
        .chain(traffic_rows(stats))
        .map(|row| [row.label.to_owned(), row.value])
        .collect()
}
