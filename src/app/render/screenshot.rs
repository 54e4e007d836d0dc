//! Reading the offscreen frame back and writing it as a PNG.

use super::FrameTarget;
use anyhow::{anyhow, Context, Result};
use std::path::Path;

/// Copies the frame's colour texture to the CPU: (width, height, tightly packed RGBA8). The bytes are
/// sRGB-encoded, as stored in the texture.
pub fn read_rgba(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    target: &FrameTarget,
) -> Result<(u32, u32, Vec<u8>)> {
    let (width, height) = target.size();
    let rgba = read_texture_rgba(device, queue, target.colour_texture())?;
    Ok((width, height, rgba))
}

/// Copies an RGBA8 texture to the CPU, tightly packed (the copy pads rows to wgpu's alignment; the padding
/// is dropped here), through the crate's one blocking readback ([`crate::gpu::read_buffer`]).
pub fn read_texture_rgba(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Vec<u8>> {
    let size = texture.size();
    let row = size.width as usize * 4;
    let padded_row = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize);
    let bytes = (padded_row * size.height as usize) as u64;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("texture readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("texture copy"),
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row as u32),
                rows_per_image: Some(size.height),
            },
        },
        wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..size
        },
    );
    queue.submit([encoder.finish()]);
    crate::gpu::read_buffer(device, &buffer, bytes, |view| {
        view.chunks_exact(padded_row)
            .flat_map(|r| &r[..row])
            .copied()
            .collect()
    })
    .map_err(|e| anyhow!("reading the texture back: {e}"))
}

/// Writes 8-bit RGBA pixels (sRGB-encoded) as a PNG with an sRGB chunk.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<()> {
    let expected = width as usize * height as usize * 4;
    if rgba.len() != expected {
        return Err(anyhow!(
            "cannot write {}: {width}x{height} RGBA needs {expected} bytes, got {}",
            path.display(),
            rgba.len()
        ));
    }
    let write = || -> Result<()> {
        let file = std::fs::File::create(path)?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(rgba)?;
        writer.finish()?;
        Ok(())
    };
    write().with_context(|| format!("writing screenshot {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_png_round_trips_and_names_bad_paths() {
        let path = std::env::temp_dir().join(format!("gpu-gjk-shot-{}.png", std::process::id()));
        let rgba: Vec<u8> = (0..3 * 2 * 4).map(|i| (i * 10) as u8).collect();
        save_png(&path, 3, 2, &rgba).unwrap();
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(&pixels[..info.buffer_size()], &rgba[..]);

        let bad = Path::new("/no/such/dir/shot.png");
        let message = format!("{:#}", save_png(bad, 3, 2, &rgba).unwrap_err());
        assert!(message.contains("/no/such/dir/shot.png"), "{message}");
        assert!(save_png(&path, 4, 4, &rgba).is_err());
    }
}
