//! Renderer checks that need the shaders or a device: naga validation, and one frame drawn and read back.

use super::*;
use crate::gpu::{BackendChoice, GpuContext};
use glam::{Quat, Vec3};

#[test]
fn shaders_validate_and_uniforms_match_the_wgsl_struct() {
    for (name, source) in render_shaders() {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| {
            panic!("{name}: {}", e.emit_to_string(source));
        });
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        if name == "render.wgsl" {
            let frame = module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some("Frame"))
                .expect("Frame struct");
            let naga::TypeInner::Struct { span, .. } = frame.1.inner else {
                panic!("Frame is not a struct");
            };
            assert_eq!(
                span as usize,
                std::mem::size_of::<pipelines::FrameUniforms>()
            );
        }
    }
}

fn srgb_byte(linear: f64) -> u8 {
    let c = linear.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

#[test]
fn a_red_cube_renders_red_on_the_background() {
    let gpu = match GpuContext::new(BackendChoice::Auto) {
        Ok(gpu) => gpu,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            println!("SKIPPED: no GPU adapter ({e})");
            return;
        }
        Err(e) => panic!("no GPU adapter on CI: {e}"),
    };
    let (device, queue) = (&gpu.device, &gpu.queue);
    let cube =
        load_render_mesh(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cube.obj"))
            .unwrap();
    let samples = msaa_samples(&gpu.adapter);
    let target = FrameTarget::new(device, 64, 64, samples);
    let mut renderer = SceneRenderer::new(device, &[cube], samples);
    let camera = crate::app::camera::Camera::looking_at(Vec3::new(0.0, 0.0, 4.0), Vec3::ZERO);
    let red = [0.9, 0.05, 0.04, 1.0];
    let instances = vec![vec![BodyInstance::new(
        Vec3::ZERO,
        Quat::IDENTITY,
        1.0,
        red,
    )]];

    let mut encoder = device.create_command_encoder(&Default::default());
    renderer.draw(
        device,
        queue,
        &mut encoder,
        &target,
        &SceneFrame {
            view_proj: camera.view_proj(1.0),
            camera_position: camera.position,
            fov_y: camera.fov_y,
            bodies: &instances,
            highlights: &[],
            wireframe: true,
            bounds_half_extent: 1.2,
            overlays: &OverlayBatch::default(),
            marks: None,
            device_bodies: None,
        },
    );
    queue.submit([encoder.finish()]);
    let (width, height, rgba) = read_rgba(device, queue, &target).unwrap();
    assert_eq!((width, height), (64, 64));
    assert_eq!(rgba.len(), 64 * 64 * 4);

    let pixel = |x: usize, y: usize| {
        let i = (y * 64 + x) * 4;
        [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]
    };
    let [r, g, b, a] = pixel(32, 32);
    assert!(
        r > 100 && r > 2 * g && r > 2 * b && a == 255,
        "centre {:?}",
        pixel(32, 32)
    );
    let background = [BACKGROUND.r, BACKGROUND.g, BACKGROUND.b].map(srgb_byte);
    for (x, y) in [(0, 0), (63, 0), (0, 63), (63, 63)] {
        let found = pixel(x, y);
        for channel in 0..3 {
            assert!(
                found[channel].abs_diff(background[channel]) <= 2,
                "corner ({x}, {y}) is {found:?}, background {background:?}"
            );
        }
    }
}
