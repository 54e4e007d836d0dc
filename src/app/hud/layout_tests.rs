//! The HUD's rows and layout, without a GPU: which rows show in which mode, what the timing rows compare, and
//! where egui places the panel, the paused banner and the keys overlay at the window sizes users start with.

use super::help::HELP_WINDOW;
use super::layout::{PAUSED_BANNER, STATS_WINDOW};
use super::painter::ui_scale;
use super::rows::{
    self, fps_text, row_texts, rows, traffic_rows, HudRow, BLOCKING_WAITS, BROAD_OVERFLOWS,
    BYTES_DOWN, BYTES_UP, GPU_GRID_TIME, GPU_MOTION_TIME, GPU_ONLY, SUBMISSIONS,
};
use super::tests::stats;
use super::{HudControls, HudStats};
use crate::app::overlays::{Overlay, OverlayToggles};

fn history() -> Vec<(f64, f64)> {
    (0..240).map(|i| (1.0, 3.0 + (i % 7) as f64)).collect()
}

fn row<'a>(rows: &'a [HudRow], label: &str) -> Option<&'a HudRow> {
    rows.iter().find(|r| r.label == label)
}

fn labels(stats: &HudStats) -> Vec<&'static str> {
    rows(stats).iter().map(|r| r.label).collect()
}

/// The software rasteriser's figures from the window's default mode: the frame did not wait for the GPU, so
/// the host's 0.34 ms is submit time, while the CPU check took 38.33 ms.
#[test]
fn speedup_compares_gpu_time_never_submit_time() {
    let history = history();
    let mut deferred = stats(&history);
    deferred.gpu_deferred = true;
    deferred.gpu_narrow_ms = Some(0.34);
    deferred.cpu_narrow_ms = Some(38.33);
    deferred.gpu_kernel_ms = Some(12.0);
    let shown = rows(&deferred);
    let speedup = row(&shown, rows::SPEEDUP_GPU_TIME).expect("a speedup over GPU time");
    assert_eq!(speedup.value, "3.19x", "38.33 / 12.0, not 38.33 / 0.34");
    assert_eq!(row(&shown, rows::GPU_TIME).unwrap().value, "12.00");
    assert_eq!(row(&shown, rows::HOST_SUBMIT).unwrap().value, "0.34");
    assert!(row(&shown, rows::HOST_ROUND_TRIP).is_none());

    // Turning an overlay on makes the frame wait: the host row says so, the GPU time and speedup keep
    // their meaning.
    let mut waited = deferred;
    waited.gpu_deferred = false;
    waited.gpu_narrow_ms = Some(170.0);
    let shown_waited = rows(&waited);
    assert_eq!(
        row(&shown_waited, rows::SPEEDUP_GPU_TIME).unwrap().value,
        "3.19x"
    );
    assert_eq!(
        row(&shown_waited, rows::HOST_ROUND_TRIP).unwrap().value,
        "170.00"
    );
    assert!(row(&shown_waited, rows::HOST_SUBMIT).is_none());

    // Without timestamp queries: no GPU time row; a waited round trip is compared as such, and a frame that
    // did not wait gives no ratio at all.
    waited.gpu_timestamps = false;
    waited.gpu_kernel_ms = None;
    let shown = rows(&waited);
    assert!(row(&shown, rows::GPU_TIME).is_none());
    assert_eq!(
        row(&shown, rows::SPEEDUP_ROUND_TRIP).unwrap().value,
        "0.23x"
    );
    waited.gpu_deferred = true;
    waited.gpu_narrow_ms = Some(0.34);
    let shown = rows(&waited);
    let speedup = row(&shown, rows::SPEEDUP_NONE).expect("a speedup row that says why it is empty");
    assert!(speedup.value.starts_with('—'), "{}", speedup.value);
    assert!(!shown.iter().any(|r| r.value.contains("112.")));
}

#[test]
fn the_cpu_narrow_phase_shows_no_gpu_row() {
    let history = history();
    let mut cpu = stats(&history);
    cpu.gpu_narrow_phase = false;
    cpu.narrow_phase = "CPU";
    let shown = labels(&cpu);
    for label in GPU_ONLY {
        assert!(!shown.contains(&label), "{label} shown in the CPU mode");
    }
    assert!(shown.contains(&rows::CPU_NARROW));
    let gpu = labels(&stats(&history));
    for label in [rows::GPU_TIME, rows::CPU_CHECK, rows::SPEEDUP_GPU_TIME] {
        assert!(gpu.contains(&label), "{label} missing in the GPU mode");
    }
}

#[test]
fn every_number_has_a_label_of_its_own() {
    let history = history();
    let stats = stats(&history);
    let shown: Vec<HudRow> = rows(&stats)
        .into_iter()
        .chain(traffic_rows(&stats))
        .collect();
    assert_eq!(row(&shown, rows::DISAGREEMENTS_LAST).unwrap().value, "1");
    assert_eq!(row(&shown, rows::DISAGREEMENTS_TOTAL).unwrap().value, "3");
    for r in &shown {
        assert!(!r.value.contains(" / "), "{}: {}", r.label, r.value);
    }
}

#[test]
fn the_fps_row_derives_its_frame_time_from_its_rate() {
    assert_eq!(fps_text(450.3), "450.3 (2.2 ms)");
    assert_eq!(fps_text(59.9), "59.9 (16.7 ms)");
    assert_eq!(fps_text(1.0), "1.00 (1000.0 ms)");
    for fps in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(fps_text(fps), "—");
    }
    for fps in [0.37, 1.5, 24.0, 59.94, 144.0, 450.3, 5000.0] {
        let text = fps_text(fps);
        let (rate, rest) = text.split_once(" (").unwrap();
        let ms: f64 = rest.split_once(' ').unwrap().0.parse().unwrap();
        assert!(rest.ends_with(" ms)"), "{text}");
        let rate: f64 = rate.parse().unwrap();
        assert!((rate * ms / 1e3 - 1.0).abs() < 0.06, "{text}");
    }
}

/// The rectangles egui gave the panel, the paused banner and the keys overlay, in points, with the screen.
struct Placed {
    screen: egui::Rect,
    panel: egui::Rect,
    banner: Option<egui::Rect>,
    help: Option<egui::Rect>,
}

/// Lays the HUD out at `width` x `height` physical pixels (one pixel per point, as under Xvfb) for a few
/// frames, with the chart open as the window opens it, and reads back where each window went.
fn place(width: u32, height: u32, stats: &HudStats, help_open: bool) -> Placed {
    place_opened_as(width, height, height, stats, help_open)
}

/// [`place`] with the panel's sections opened as in a window `opened_as_height` pixels high.
fn place_opened_as(
    width: u32,
    height: u32,
    opened_as_height: u32,
    stats: &HudStats,
    help_open: bool,
) -> Placed {
    let ctx = egui::Context::default();
    let zoom = ui_scale((width, height), 1.0);
    ctx.set_zoom_factor(zoom);
    let screen = egui::Rect::from_min_size(
        egui::Pos2::ZERO,
        egui::vec2(width as f32, height as f32) / zoom,
    );
    let mut overlays = OverlayToggles::from_list(&Overlay::ALL);
    let mut threshold = 0.25;
    let mut help = help_open;
    let mut picked_only = false;
    let mut actions = Vec::new();
    for frame in 0..4 {
        let input = egui::RawInput {
            screen_rect: Some(screen),
            time: Some(frame as f64 * 0.1),
            ..Default::default()
        };
        let mut output = ctx.run_pass(input, |ctx| {
            let mut controls = HudControls {
                overlays: &mut overlays,
                closest_threshold: &mut threshold,
                max_threshold: 2.0,
                window_px: (width as f32, opened_as_height as f32),
                help_open: &mut help,
                picked_only: &mut picked_only,
                actions: &mut actions,
            };
            super::stats_window(ctx, stats, &mut controls);
        });
        // Nothing is painted: the font atlas's uploads are dropped on purpose.
        output.textures_delta.clear();
    }
    let rect = |id: &str| ctx.memory(|m| m.area_rect(egui::Id::unique(id)));
    Placed {
        screen: ctx.content_rect(),
        panel: rect(STATS_WINDOW).expect("the stats panel was laid out"),
        banner: rect(PAUSED_BANNER),
        help: rect(HELP_WINDOW),
    }
}

fn inside(outer: egui::Rect, inner: egui::Rect) -> bool {
    outer.expand(0.5).contains_rect(inner)
}

#[test]
fn the_panel_fits_1280x720_with_every_section_open_and_paused() {
    let history = history();
    let mut stats = stats(&history);
    stats.paused = true;
    let placed = place(1280, 720, &stats, false);
    assert!(
        inside(placed.screen, placed.panel),
        "panel {:?} leaves the screen {:?}",
        placed.panel,
        placed.screen
    );
    // The paused banner stands apart from the panel, so pausing moves nothing in it.
    let banner = placed.banner.expect("a paused banner");
    assert!(inside(placed.screen, banner));
    assert!(
        !banner.intersects(placed.panel),
        "{banner:?} over the panel"
    );
    let mut running = stats.clone();
    running.paused = false;
    let unpaused = place(1280, 720, &running, false);
    assert_eq!(unpaused.panel, placed.panel, "pausing moved the panel");
    assert!(unpaused.banner.is_none());
    // As it opens at 1280x720 the panel needs no scrolling: it is as tall as in a window with room for
    // everything, and ends above the screen's edge with room to spare.
    let tall = place_opened_as(1280, 2000, 720, &stats, false);
    assert!(
        (tall.panel.height() - placed.panel.height()).abs() < 0.5,
        "the panel is cut to {} of its {}",
        placed.panel.height(),
        tall.panel.height()
    );
    assert!(
        placed.panel.max.y < placed.screen.max.y - 20.0,
        "the panel reaches {} of {}",
        placed.panel.max.y,
        placed.screen.max.y
    );
}

/// The panel fits the common window sizes as it opens there (the chart open only where there is room).
#[test]
fn the_panel_fits_common_window_sizes() {
    let history = history();
    let mut stats = stats(&history);
    stats.paused = true;
    let sizes = [
        (800, 600),
        (1280, 480),
        (640, 480),
        (1280, 1024),
        (1920, 1080),
        (2560, 1440),
        (3840, 2160),
    ];
    for (width, height) in sizes {
        let placed = place(width, height, &stats, false);
        assert!(
            inside(placed.screen, placed.panel),
            "{width}x{height}: panel {:?} leaves the screen {:?}",
            placed.panel,
            placed.screen
        );
    }
}

#[test]
fn the_panel_keeps_its_width_whatever_it_shows() {
    let history = history();
    let base = stats(&history);
    let width = place(1280, 720, &base, false).panel.width();
    let mut long = stats(&history);
    long.adapter = "NVIDIA GeForce RTX 4090 Laptop GPU with a much longer name (driver 555.42.06)";
    long.gjk_iterations_cpu_warm = 123_456_789_012;
    long.gjk_iterations_gpu_cold = 987_654_321_098;
    long.check_mode =
        "CPU check: sampled, 12,345 of 67,890 frames (worker busy, the GPU ran ahead)";
    long.response = "on, 123,456 pairs pushed this frame";
    let mut cpu = stats(&history);
    cpu.gpu_narrow_phase = false;
    for (name, other) in [("long values", &long), ("CPU mode", &cpu)] {
        let other_width = place(1280, 720, other, false).panel.width();
        assert!(
            (other_width - width).abs() < 0.5,
            "{name}: the panel is {other_width} wide, not {width}"
        );
    }
}

#[test]
fn the_keys_overlay_fits_every_window_it_opens_in() {
    let history = history();
    let stats = stats(&history);
    for (width, height) in [
        (1280, 720),
        (1920, 1080),
        (800, 600),
        (640, 480),
        (320, 240),
    ] {
        let placed = place(width, height, &stats, true);
        let help = placed.help.expect("the keys overlay is open");
        assert!(
            inside(placed.screen, help),
            "{width}x{height}: keys overlay {help:?} leaves the screen {:?}",
            placed.screen
        );
    }
    assert!(place(1280, 720, &stats, false).help.is_none());
}

/// The frame's bus traffic, submissions and waits show in every mode, in their own section, exact counts on
/// hover; the pair buffer's overflows only while the GPU runs the broad phase. The summary's rows hold them after
/// the main grid's.
#[test]
fn the_frames_traffic_rows_show_its_bytes_submissions_waits_and_overflows() {
    let history = history();
    let mut stats = stats(&history);
    let shown = traffic_rows(&stats);
    let value = |label| row(&shown, label).map(|r| r.value.as_str());
    assert_eq!(value(BYTES_UP), Some("6.81 MB"));
    assert_eq!(value(BYTES_DOWN), Some("57.4 KB"));
    assert_eq!(value(SUBMISSIONS), Some("7"));
    assert_eq!(value(BLOCKING_WAITS), Some("5"));
    assert_eq!(value(BROAD_OVERFLOWS), Some("1"));
    assert_eq!(value(GPU_MOTION_TIME), Some("0.25"));
    assert_eq!(value(GPU_GRID_TIME), Some("0.75"));
    let hover = &row(&shown, BYTES_DOWN).unwrap().hover;
    assert!(hover.starts_with("57,392 bytes"), "{hover}");
    assert!(row(&rows(&stats), "Broad phase ms")
        .unwrap()
        .hover
        .contains("on the GPU"));
    let texts = row_texts(&stats);
    let main = rows(&stats).len();
    assert_eq!(texts.len(), main + shown.len());
    assert_eq!(texts[main], [BYTES_UP.to_owned(), "6.81 MB".to_owned()]);
    // The CPU grid: no pair buffer to overflow; the CPU narrow phase: the traffic rows still show.
    stats.traffic.broad_on_gpu = false;
    stats.gpu_narrow_phase = false;
    let shown = traffic_rows(&stats);
    assert!(row(&shown, BROAD_OVERFLOWS).is_none());
    assert!(row(&shown, GPU_GRID_TIME).is_none());
    assert_eq!(shown.len(), 4);
    assert!(row(&rows(&stats), "Broad phase ms")
        .unwrap()
        .hover
        .contains("on the CPU"));
}
