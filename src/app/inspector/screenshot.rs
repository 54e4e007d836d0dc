//! `gpu-gjk inspect --screenshot`: the inspector filling a 1280x720 picture, drawn offscreen (no window or
//! display needed), with the GPU's answer for the pair beside the CPU's when an adapter is found.

use super::panel::{self, Placement};
use super::view::InspectorView;
use super::{pair_instances, GpuVerdict, InspectedPair, Inspector};
use crate::app::hud::HudPainter;
use crate::app::render::{msaa_samples, read_rgba, save_png, FrameTarget, TARGET_FORMAT};
use crate::cli::Inspected;
use crate::gjk::GjkConfig;
use crate::gpu::{BackendChoice, GpuContext, NarrowPhase};
use crate::pose::RelativePose;
use crate::shape::ConvexShape;
use anyhow::{Context, Result};
use std::path::Path;

const SIZE: (u32, u32) = (1280, 720);
const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.018,
    g: 0.022,
    b: 0.034,
    a: 1.0,
};

/// The GPU's answer for the pair: A at the origin and B at its pose relative to A, formed in float64, as
/// `query --backend gpu` runs it (but without answering a failure again on the CPU: the inspector shows what
/// the GPU said).
pub fn gpu_verdict(gpu: &GpuContext, inspected: &Inspected) -> GpuVerdict {
    let pair = &inspected.pair;
    let relative = RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose);
    gpu_answer(gpu, &pair.a.shape, &pair.b.shape, &relative)
}

/// The GPU's answer for `a` at the origin and `b` at `relative`.
pub fn gpu_answer(
    gpu: &GpuContext,
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
) -> GpuVerdict {
    let instances = pair_instances(relative);
    let mut narrow = NarrowPhase::new(&gpu.device, &gpu.queue);
    let answer = narrow
        .upload_hulls(&[ConvexShape::clone(a), ConvexShape::clone(b)])
        .and_then(|()| narrow.run_penetration(&instances, &[[0, 1]], &GjkConfig::default()));
    match answer {
        Ok(batch) => match (batch.results.first(), batch.penetrations.first()) {
            (Some(result), Some(penetration)) => GpuVerdict::Answer {
                result: *result,
                penetration: *penetration,
            },
            _ => GpuVerdict::Unavailable("the GPU answered no pair".into()),
        },
        Err(e) => GpuVerdict::Unavailable(format!("GPU run failed: {e}")),
    }
}

/// The inspector on an inspected `query` line, with the GPU's answer from `gpu`, at `step` (default: the
/// last, the answer).
pub fn line_inspector(gpu: &GpuContext, inspected: &Inspected, step: Option<usize>) -> Inspector {
    let pair = &inspected.pair;
    let mut inspector = Inspector::new(InspectedPair {
        label: format!("line {}", inspected.line),
        a: ConvexShape::clone(&pair.a.shape),
        b: ConvexShape::clone(&pair.b.shape),
        relative: RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose),
        frame: pair.a.pose.folded(),
        trace: inspected.trace.clone(),
        epa_trace: None,
        gpu: gpu_verdict(gpu, inspected),
        flat: false,
    });
    if let Some(step) = step {
        inspector.seek(step);
    }
    inspector
}

/// What the GPU check found, in words for the terminal: "agrees with the CPU", or the difference.
pub fn verdict_note(inspector: &Inspector) -> String {
    match (&inspector.pair.gpu, inspector.gpu_agrees()) {
        (_, Some(true)) => "the GPU's answer agrees with the CPU's".into(),
        (GpuVerdict::Answer { result, .. }, _) => format!(
            "the GPU's answer differs from the CPU's: GPU {} at distance {}",
            result.status.name(),
            result.distance
        ),
        (GpuVerdict::Unavailable(why), _) => format!("no GPU answer: {why}"),
    }
}

/// Draws the inspector on the inspected pair's step `step` (default: the last) into a PNG at `path`, and
/// returns it (its GPU verdict is for the terminal).
pub fn inspect_screenshot(
    inspected: &Inspected,
    path: &Path,
    step: Option<usize>,
) -> Result<Inspector> {
    let gpu = GpuContext::new(BackendChoice::Auto)
        .context("the inspector's picture needs a GPU adapter (a software one is fine)")?;
    let mut inspector = line_inspector(&gpu, inspected, step);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let samples = msaa_samples(&gpu.adapter);
    let target = FrameTarget::new(device, SIZE.0, SIZE.1, samples);
    let mut painter = HudPainter::new(device, TARGET_FORMAT);
    let mut view = InspectorView::new(device, (640, 480), samples);
    let mut view_px = (640, 480);
    // egui sizes a new window on its first pass without showing it; the later passes draw it, the last one
    // with the view at the size the window gave it.
    for pass in 0..3 {
        let mut encoder = device.create_command_encoder(&Default::default());
        view.render(device, queue, &mut encoder, &inspector, view_px);
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("inspector screenshot background"),
            color_attachments: &[Some(target.scene_attachment(BACKGROUND))],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let texture = view.texture_id(device, &mut painter);
        let frame = crate::app::hud::painter::Frame {
            target: target.colour_view(),
            size_px: SIZE,
            pixels_per_point: 1.0,
        };
        let input = egui::RawInput {
            time: Some(pass as f64),
            ..Default::default()
        };
        let mut actions = Vec::new();
        let _ = painter.paint(device, queue, &mut encoder, &frame, input, |ctx| {
            view_px = panel::show(
                ctx,
                &mut inspector,
                Some(texture),
                Placement::Full,
                &mut actions,
            )
            .view_px;
        });
        queue.submit([encoder.finish()]);
    }
    let (width, height, rgba) = read_rgba(device, queue, &target)?;
    save_png(path, width, height, &rgba)?;
    Ok(inspector)
}
