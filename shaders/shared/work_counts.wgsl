// Per-pair work counters: the proxies `bench` derives SIMT efficiency from (src/gpu/work.rs). Only the counting
// kernel (gjk_counting.wgsl) is built with COUNTING = 1; in every other kernel the counts are compiled away, so
// the answering kernels pay nothing for them.

var<private> counted_support_calls: u32;
var<private> counted_vertex_reads: u32;

// One support call that read `vertex_reads` hull points.
fn count_support(vertex_reads: u32) {
    if (COUNTING == 1u) {
        counted_support_calls = counted_support_calls + 1u;
        counted_vertex_reads = counted_vertex_reads + vertex_reads;
    }
}
