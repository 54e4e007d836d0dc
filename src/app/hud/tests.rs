//! The HUD drawn headless into an offscreen texture and read back.

use super::painter::{Frame, HudPainter};
use super::{HudControls, HudStats};
use crate::app::overlays::{Overlay, OverlayToggles};
use crate::gpu::{BackendChoice, GpuContext};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
/// A colour the HUD never paints (its panel is dark grey, its text light), stored exactly in 8-bit sRGB.
const CLEAR: [u8; 4] = [0, 0, 255, 255];

fn gpu() -> Option<GpuContext> {
    match GpuContext::new(BackendChoice::Auto) {
        Ok(gpu) => Some(gpu),
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            println!("SKIPPED: no GPU adapter ({e})");
            None
        }
        Err(e) => panic!("no GPU adapter on CI: {e}"),
    }
}

pub(super) fn stats(history: &[(f64, f64)]) -> HudStats<'_> {
    HudStats {
        bodies: 12_345,
        candidate_pairs: 67_890,
        colliding_pairs: 1_234,
        broad_phase_ms: 1.5,
        traffic: super::FrameTraffic {
            bytes_up: 6_814_512,
            bytes_down: 57_392,
            submissions: 7,
            blocking_waits: 5,
            broad_on_gpu: true,
            broad_overflows: 1,
        },
        gpu_narrow_phase: true,
        gpu_narrow_ms: Some(0.8),
        gpu_kernel_ms: Some(0.5),
        gpu_timestamps: true,
        gpu_scene_ms: Some([0.25, 0.75]),
        gpu_deferred: false,
        cpu_narrow_ms: Some(4.2),
        disagreements_frame: 1,
        disagreements_total: 3,
        gpu_failures_total: 0,
        gjk_iterations_cpu_warm: 9_120,
        gjk_iterations_gpu_cold: 10_000,
        fps: 59.9,
        adapter: "llvmpipe (LLVM 15.0.6, 256 bits)",
        backend: "Gl",
        narrow_phase: "GPU",
        check_mode: "CPU check: every frame",
        paused: true,
        wireframe: false,
        player_shape: "cube",
        response: "off",
        history,
        query_mode: "distance (GJK)",
        disagreement_pairs: 1,
    }
}

/// Paints `frames` HUD frames, each over a `width` x `height` texture cleared to [`CLEAR`], and reads the
/// last back as tightly packed RGBA8.
fn paint_frames(gpu: &GpuContext, width: u32, height: u32, frames: usize) -> Vec<u8> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("hud test target"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let history: Vec<(f64, f64)> = (0..120)
        .map(|i| {
            let gpu_ms = if i % 10 == 0 { f64::NAN } else { 1.0 };
            (gpu_ms, 3.0 + (i as f64 * 0.1).sin())
        })
        .collect();
    let stats = stats(&history);
    let mut painter = HudPainter::new(device, FORMAT);
    let mut overlays = OverlayToggles::from_list(&[Overlay::Contacts, Overlay::Closest]);
    let mut threshold = 0.25;
    let (mut help_open, mut picked_only) = (false, false);

    for frame in 0..frames {
        let mut encoder = device.create_command_encoder(&Default::default());
        // Cleared every frame, as the scene pass does in the app: the HUD is translucent and would
        // otherwise darken with each frame drawn over the last.
        {
            let [r, g, b, a] = CLEAR.map(|c| c as f64 / 255.0);
            encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("hud test clear"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        }
        let target = Frame {
            target: &view,
            size_px: (width, height),
            pixels_per_point: 1.0,
        };
        let input = egui::RawInput {
            time: Some(frame as f64),
            ..Default::default()
        };
        let mut actions = Vec::new();
        let _ = painter.paint(device, queue, &mut encoder, &target, input, |ctx| {
            let mut controls = HudControls {
                overlays: &mut overlays,
                closest_threshold: &mut threshold,
                max_threshold: 2.0,
                window_px: (width as f32, height as f32),
                help_open: &mut help_open,
                picked_only: &mut picked_only,
                actions: &mut actions,
            };
            super::stats_window(ctx, &stats, &mut controls);
        });
        queue.submit([encoder.finish()]);
    }
    crate::app::render::screenshot::read_texture_rgba(&gpu.device, &gpu.queue, &texture)
        .expect("reading the HUD texture back")
}

/// egui embeds no font unless its `default_fonts` feature is on, and without one every glyph is drawn as
/// an empty box, which the pixel test below cannot tell from text.
#[test]
fn egui_has_fonts_to_draw_text_with() {
    assert!(
        !egui::FontDefinitions::default().font_data.is_empty(),
        "egui has no fonts: enable its `default_fonts` feature in Cargo.toml"
    );
}

#[test]
fn hud_paints_over_what_the_target_holds() {
    let Some(gpu) = gpu() else { return };
    let (width, height) = (320, 240);
    // Two frames: egui sizes a new window on the first without showing it, and the second also runs with
    // the font atlas already uploaded.
    let pixels = paint_frames(&gpu, width, height, 2);
    let pixel = |x: u32, y: u32| -> [u8; 4] {
        let i = (y * width + x) as usize * 4;
        pixels[i..i + 4].try_into().unwrap()
    };

    // The window is anchored 8 px from the top-left corner; the corner keeps the cleared colour, so the
    // pass loaded the target rather than clearing it.
    assert_eq!(pixel(0, 0), CLEAR);

    let painted = pixels.chunks_exact(4).filter(|p| *p != CLEAR).count();
    let total = (width * height) as usize;
    assert!(
        painted > total / 4,
        "only {painted} of {total} pixels carry the HUD"
    );
    // Text is light on a dark panel: some pixels must be much brighter than the panel.
    let bright = pixels
        .chunks_exact(4)
        .filter(|p| p[0] > 150 && p[1] > 150)
        .count();
    assert!(bright > 200, "only {bright} bright (text) pixels");
}

/// At 800x600 the HUD shrinks with the window and folds its chart and controls: most of the window, and its
/// middle, stay the scene's.
#[test]
fn hud_leaves_the_scene_visible_at_800x600() {
    let Some(gpu) = gpu() else { return };
    let (width, height) = (800, 600);
    let pixels = paint_frames(&gpu, width, height, 2);
    let painted = pixels.chunks_exact(4).filter(|p| *p != CLEAR).count();
    let total = (width * height) as usize;
    eprintln!("the HUD covers {painted} of {total} pixels at 800x600");
    assert!(
        painted * 100 < total * 30,
        "the HUD covers {painted} of {total} pixels"
    );
    assert!(painted > total / 20, "no HUD drawn: {painted} pixels");
    let centre = ((height / 2 * width + width / 2) * 4) as usize;
    assert_eq!(
        &pixels[centre..centre + 4],
        &CLEAR,
        "the middle of the window is the scene's"
    );
}
