// Debug overlays drawn over the scene: instanced screen-space primitives (segments of a given pixel width,
// discs and rings of a given pixel diameter) and translucent triangles. Each primitive is one instance of
// six vertices (two triangles), so thousands of them cost one draw. Depth tested with a small pull towards
// the camera, so a segment lying on a face wins against it; a second pass draws what is hidden faintly.
// The Rust twins are `OverlayPrim`, `OverlayVertex` and `ViewUniforms` in `src/app/render/overlay.rs`.

struct View {
    view_proj: mat4x4<f32>,
    camera_position: vec4<f32>,
    // Target size in pixels (xy), the fraction of the way towards the camera every point moves (z), and the
    // alpha factor of hidden parts (w).
    viewport: vec4<f32>,
    // Unit vector towards the light (xyz).
    light_direction: vec4<f32>,
}

@group(0) @binding(0) var<uniform> view: View;

const STYLE_SEGMENT: u32 = 0u;
const STYLE_DISC: u32 = 1u;
const STYLE_RING: u32 = 2u;
// Added to a style: drawn at full alpha where it is hidden too (markers that must never be lost).
const STYLE_ON_TOP: u32 = 4u;

struct Prim {
    // End a (xyz) and the width or diameter in pixels (w).
    @location(0) a: vec4<f32>,
    // End b (xyz; unused by discs and rings) and the style (w).
    @location(1) b: vec4<f32>,
    @location(2) colour: vec4<f32>,
}

struct PrimOut {
    @builtin(position) position: vec4<f32>,
    @location(0) colour: vec4<f32>,
    // Position across the primitive: (-1..1, -1..1) for discs and rings, (0, -1..1) for segments.
    @location(1) local: vec2<f32>,
    @location(2) @interpolate(flat) style: u32,
    // Alpha factor where the primitive is hidden behind the scene.
    @location(3) @interpolate(flat) hidden_alpha: f32,
}

fn pulled(p: vec3<f32>) -> vec4<f32> {
    return view.view_proj * vec4<f32>(mix(p, view.camera_position.xyz, view.viewport.z), 1.0);
}

// Corner k of the quad: (end, side), end 0 or 1 along the primitive, side -1 or 1 across it.
fn corner(k: u32) -> vec2<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0),
    );
    return corners[k];
}

fn hidden_vertex() -> PrimOut {
    var out: PrimOut;
    // Outside the clip volume: the triangle is dropped.
    out.position = vec4<f32>(2.0, 2.0, 2.0, 1.0);
    out.colour = vec4<f32>(0.0);
    out.local = vec2<f32>(0.0);
    out.style = STYLE_SEGMENT;
    out.hidden_alpha = 0.0;
    return out;
}

@vertex
fn vs_prim(@builtin(vertex_index) index: u32, prim: Prim) -> PrimOut {
    let k = corner(index % 6u);
    let flags = u32(prim.b.w);
    let style = flags % STYLE_ON_TOP;
    let half_width = 0.5 * prim.a.w;
    let to_ndc = 2.0 / view.viewport.xy;
    var out: PrimOut;
    out.colour = prim.colour;
    out.style = style;
    out.hidden_alpha = select(view.viewport.w, 1.0, flags >= STYLE_ON_TOP);
    if style != STYLE_SEGMENT {
        let c = pulled(prim.a.xyz);
        if c.w <= 0.0 {
            return hidden_vertex();
        }
        let side = vec2<f32>(2.0 * k.x - 1.0, k.y);
        out.position = vec4<f32>(c.xy + side * half_width * to_ndc * c.w, c.z, c.w);
        out.local = side;
        return out;
    }
    var ca = pulled(prim.a.xyz);
    var cb = pulled(prim.b.xyz);
    // Clip against the near plane (depth 0 in wgpu's convention) so an end behind the camera does not fold
    // the segment through infinity.
    if ca.z < 0.0 && cb.z < 0.0 {
        return hidden_vertex();
    }
    if ca.z < 0.0 {
        ca = mix(ca, cb, ca.z / (ca.z - cb.z));
    } else if cb.z < 0.0 {
        cb = mix(cb, ca, cb.z / (cb.z - ca.z));
    }
    let sa = ca.xy / ca.w / to_ndc;
    let sb = cb.xy / cb.w / to_ndc;
    var dir = sb - sa;
    let len = length(dir);
    dir = select(vec2<f32>(1.0, 0.0), dir / len, len > 1e-6);
    let normal = vec2<f32>(-dir.y, dir.x);
    let c = select(ca, cb, k.x > 0.5);
    // Ends extended by half the width, so joints of a polyline close.
    let offset = normal * k.y * half_width + dir * (2.0 * k.x - 1.0) * half_width;
    out.position = vec4<f32>(c.xy + offset * to_ndc * c.w, c.z, c.w);
    out.local = vec2<f32>(0.0, k.y);
    return out;
}

// Coverage of a fragment: discs and rings cut from their square, all edges smoothed over about a pixel.
fn coverage(in: PrimOut) -> f32 {
    if in.style == STYLE_SEGMENT {
        return 1.0;
    }
    let r = length(in.local);
    let edge = fwidth(r);
    let outer = 1.0 - smoothstep(1.0 - edge, 1.0, r);
    if in.style == STYLE_RING {
        return outer * smoothstep(0.55 - edge, 0.55, r);
    }
    return outer;
}

@fragment
fn fs_prim(in: PrimOut) -> @location(0) vec4<f32> {
    let a = coverage(in) * in.colour.a;
    if a <= 0.0 {
        discard;
    }
    return vec4<f32>(in.colour.rgb, a);
}

// What lies behind the scene's surfaces, drawn faintly (the depth test is inverted for this pass).
@fragment
fn fs_prim_hidden(in: PrimOut) -> @location(0) vec4<f32> {
    let a = coverage(in) * in.colour.a * in.hidden_alpha;
    if a <= 0.0 {
        discard;
    }
    return vec4<f32>(in.colour.rgb, a);
}

struct TriangleOut {
    @builtin(position) position: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) colour: vec4<f32>,
}

@vertex
fn vs_triangle(
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
) -> TriangleOut {
    var out: TriangleOut;
    out.position = view.view_proj * vec4<f32>(position, 1.0);
    out.normal = normal;
    out.colour = colour;
    return out;
}

// Translucent faces lit from both sides (a hull seen through its front faces shows its back faces too).
@fragment
fn fs_triangle(in: TriangleOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal + vec3<f32>(1e-7));
    let light = 0.55 + 0.45 * abs(dot(n, view.light_direction.xyz));
    return vec4<f32>(in.colour.rgb * light, in.colour.a);
}
