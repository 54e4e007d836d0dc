// Copies the offscreen frame to the window with one triangle that covers the screen.

@group(0) @binding(0) var frame: texture_2d<f32>;
@group(0) @binding(1) var frame_sampler: sampler;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    // (0,0), (2,0), (0,2) in uv: the triangle's visible part is exactly the screen.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

// For sRGB surfaces: sampling decodes to linear and the write encodes again.
@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return textureSample(frame, frame_sampler, in.uv);
}

fn encode_srgb(linear: vec3<f32>) -> vec3<f32> {
    let c = clamp(linear, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}

// For linear (UNORM) surfaces, which store what they are given: encode here so the window matches
// the screenshot.
@fragment
fn fs_encode_srgb(in: VertexOut) -> @location(0) vec4<f32> {
    let colour = textureSample(frame, frame_sampler, in.uv);
    return vec4<f32>(encode_srgb(colour.rgb), colour.a);
}
