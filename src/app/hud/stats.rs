//! What the HUD shows and what its widgets change, with the number formatting its layout uses; below the
//! layout and the window that draw them.

use crate::app::controls::Action;
use crate::app::overlays::OverlayToggles;

/// What the frame's broad and narrow phases moved between host and GPU (not the renderer), and how often the
/// host went to the GPU for them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTraffic {
    pub bytes_up: u64,
    pub bytes_down: u64,
    pub submissions: u32,
    /// Times the host blocked on the GPU.
    pub blocking_waits: u32,
    /// Whether the GPU found the frame's candidate pairs (else the CPU grid did).
    pub broad_on_gpu: bool,
    /// Times the GPU broad phase's pair buffer overflowed this frame (grown and run again: no pair lost).
    pub broad_overflows: u32,
}

/// Everything the HUD shows for one frame.
#[derive(Clone)]
pub struct HudStats<'a> {
    pub bodies: usize,
    pub candidate_pairs: usize,
    pub colliding_pairs: usize,
    pub broad_phase_ms: f64,
    pub traffic: FrameTraffic,
    /// Whether the GPU is the narrow phase (else the CPU is, and no GPU or check row is shown).
    pub gpu_narrow_phase: bool,
    /// Host time of the GPU narrow phase: the round trip, or only submitting and collecting when the frame
    /// did not wait (`gpu_deferred`). `None`: not measured yet.
    pub gpu_narrow_ms: Option<f64>,
    /// GPU time of the narrow phase from timestamp queries.
    pub gpu_kernel_ms: Option<f64>,
    /// Whether the adapter has timestamp queries (so there is a GPU time to show).
    pub gpu_timestamps: bool,
    /// GPU time of the motion pass and of the broad phase's grid pass, from timestamp queries, as the latest
    /// checked frame that timed them read it; `None` where they are not timed.
    pub gpu_scene_ms: Option<[f64; 2]>,
    /// The frame left its batch running rather than wait for its answers.
    pub gpu_deferred: bool,
    /// The CPU reference on the same pairs (all threads), or the CPU narrow phase.
    pub cpu_narrow_ms: Option<f64>,
    /// In the latest checked frame.
    pub disagreements_frame: usize,
    /// Since start.
    pub disagreements_total: u64,
    /// Pairs the GPU answered with a named failure status since start, answered again on the CPU.
    pub gpu_failures_total: u64,
    /// GJK iterations of the CPU check since start (warm-started per pair), and of the GPU on the same pairs
    /// (cold).
    pub gjk_iterations_cpu_warm: u64,
    pub gjk_iterations_gpu_cold: u64,
    /// Frames per second of wall time (0 before two frames); the row derives the frame time from it.
    pub fps: f64,
    /// E.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub adapter: &'a str,
    /// E.g. "Gl".
    pub backend: &'a str,
    /// "GPU" or "CPU": which narrow phase colours the bodies.
    pub narrow_phase: &'a str,
    /// E.g. "CPU check: every frame".
    pub check_mode: &'a str,
    pub paused: bool,
    pub wireframe: bool,
    /// "cube" / "sphere" / "cone" / "cylinder".
    pub player_shape: &'a str,
    /// Collision response (R): e.g. "off" or "on, 120 pairs pushed".
    pub response: &'a str,
    /// Rolling (gpu_ms, cpu_ms), oldest first; NaN where not measured. The GPU's figure is its time from
    /// timestamp queries where the adapter has them, else the host's round trip.
    pub history: &'a [(f64, f64)],
    /// The narrow phase's query, e.g. "distance".
    pub query_mode: &'a str,
    /// Pairs the latest check disputed (the "next disagreement" button shows when there are some).
    pub disagreement_pairs: usize,
}

/// What the HUD's widgets change: the overlay toggles and the closest-point range directly, everything
/// else as actions the app carries out after the frame (the same actions as the keys).
pub struct HudControls<'a> {
    pub overlays: &'a mut OverlayToggles,
    pub closest_threshold: &'a mut f32,
    /// The slider's upper end.
    pub max_threshold: f32,
    /// The window's size in physical pixels: low windows start with the chart folded.
    pub window_px: (f32, f32),
    /// The keys overlay (F1 or ?), and whether overlays show only the picked body's pairs (O).
    pub help_open: &'a mut bool,
    pub picked_only: &'a mut bool,
    pub actions: &'a mut Vec<Action>,
}

/// Bytes with a unit for the HUD: "512 B", "57.4 KB", "6.81 MB", "1.20 GB" (decimal units, three figures).
pub fn format_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    let (value, unit) = match bytes {
        0..1_000 => return format!("{bytes} B"),
        // Where three figures would round up to 1000, the next unit.
        1_000..999_500 => (b / 1e3, "KB"),
        999_500..999_500_000 => (b / 1e6, "MB"),
        _ => (b / 1e9, "GB"),
    };
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {unit}")
}

/// `n` with a comma every three digits: 12345 -> "12,345".
pub fn format_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How many times faster the GPU narrow phase is than the CPU one (cpu / gpu); `None` when either time is
/// missing or not a positive finite number, where a ratio would mean nothing.
pub fn speedup(cpu: Option<f64>, gpu: Option<f64>) -> Option<f64> {
    let usable = |t: f64| t.is_finite() && t > 0.0;
    match (cpu, gpu) {
        (Some(cpu), Some(gpu)) if usable(cpu) && usable(gpu) => Some(cpu / gpu),
        _ => None,
    }
}

#[cfg(test)]
mod format_tests {
    use super::*;

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1,000");
        assert_eq!(format_count(12_345), "12,345");
        assert_eq!(format_count(123_456), "123,456");
        assert_eq!(format_count(1_234_567), "1,234,567");
        assert_eq!(format_count(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn bytes_get_a_unit_and_three_figures() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(999), "999 B");
        assert_eq!(format_bytes(1_000), "1.00 KB");
        assert_eq!(format_bytes(57_392), "57.4 KB");
        assert_eq!(format_bytes(999_499), "999 KB");
        assert_eq!(format_bytes(999_999), "1.00 MB");
        assert_eq!(format_bytes(6_814_512), "6.81 MB");
        assert_eq!(format_bytes(374_000_000), "374 MB");
        assert_eq!(format_bytes(1_200_000_000), "1.20 GB");
        assert_eq!(format_bytes(u64::MAX), "18446744074 GB");
    }

    #[test]
    fn speedup_needs_both_times() {
        assert_eq!(speedup(Some(10.0), Some(2.0)), Some(5.0));
        assert_eq!(speedup(Some(1.0), Some(4.0)), Some(0.25));
        assert_eq!(speedup(None, Some(2.0)), None);
        assert_eq!(speedup(Some(2.0), None), None);
        assert_eq!(speedup(Some(2.0), Some(0.0)), None);
        assert_eq!(speedup(Some(f64::NAN), Some(1.0)), None);
        assert_eq!(speedup(Some(1.0), Some(f64::INFINITY)), None);
    }
}
