//! Copying a chunk's answers out of the mapped readback buffer. One thread's copy is bounded by one core's
//! load bandwidth (a few GB/s, less from the uncached or write-combined memory some drivers map readback
//! buffers in), far below what the bus brings back: a 100-million-pair distance batch is 3.2 GB of records.
//! So on a hardware adapter a large copy is split into slices of at least [`MIN_SLICE_BYTES`], copied on every
//! rayon thread. A software adapter (llvmpipe, lavapipe) computes the next chunk on those same cores while
//! this one is copied out, and there one thread copies faster (docs/benchmarks.md): [`parallel_copy_on`].

use rayon::prelude::*;

/// Below this many bytes the copy stays on the calling thread: waking the pool costs more than it saves.
pub(crate) const PARALLEL_COPY_MIN_BYTES: usize = 1 << 20;

/// The smallest slice one thread copies (a multiple of 64 bytes, a cache line).
pub(crate) const MIN_SLICE_BYTES: usize = 256 << 10;

/// Whether answers are copied out of `device`'s readback buffers on every thread: on hardware adapters only.
pub(crate) fn parallel_copy_on(device: &wgpu::Device) -> bool {
    device.adapter_info().device_type != wgpu::DeviceType::Cpu
}

/// `dst.copy_from_slice(src)`, on every rayon thread when `parallel` and the copy is large. Returns the slices
/// it was split into (1: on the calling thread).
pub(crate) fn copy_out(dst: &mut [u8], src: &[u8], parallel: bool) -> usize {
    assert_eq!(dst.len(), src.len(), "copy_out: lengths differ");
    let threads = rayon::current_num_threads();
    if !parallel || src.len() < PARALLEL_COPY_MIN_BYTES || threads < 2 {
        dst.copy_from_slice(src);
        return 1;
    }
    let slice = src
        .len()
        .div_ceil(threads)
        .next_multiple_of(64)
        .max(MIN_SLICE_BYTES);
    dst.par_chunks_mut(slice)
        .zip(src.par_chunks(slice))
        .for_each(|(d, s)| d.copy_from_slice(s));
    src.len().div_ceil(slice)
}

#[cfg(test)]
mod tests {
    use super::{copy_out, MIN_SLICE_BYTES, PARALLEL_COPY_MIN_BYTES};

    /// Every byte lands where a plain copy puts it, at the sizes around each threshold and at odd lengths.
    #[test]
    fn the_copy_is_a_plain_copy_at_every_size() {
        let sizes = [
            0,
            1,
            63,
            PARALLEL_COPY_MIN_BYTES - 1,
            PARALLEL_COPY_MIN_BYTES,
            PARALLEL_COPY_MIN_BYTES + 13,
            4 * MIN_SLICE_BYTES + 7,
            9 * PARALLEL_COPY_MIN_BYTES + 3,
        ];
        for len in sizes {
            let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 251) as u8).collect();
            let mut dst = vec![0xa5u8; len];
            for parallel in [false, true] {
                dst.fill(0xa5);
                copy_out(&mut dst, &src, parallel);
                assert!(dst == src, "{len} bytes");
            }
        }
    }

    /// A large copy is split into one slice per thread of the pool; a small one stays whole.
    #[test]
    fn a_large_copy_is_shared_by_the_pool() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .expect("a pool");
        let len = 16 * PARALLEL_COPY_MIN_BYTES;
        let src = vec![7u8; len];
        let mut dst = vec![0u8; len];
        assert_eq!(pool.install(|| copy_out(&mut dst, &src, true)), 4);
        assert!(dst == src);
        assert_eq!(pool.install(|| copy_out(&mut dst, &src, false)), 1);
        let small = PARALLEL_COPY_MIN_BYTES - 1;
        assert_eq!(
            pool.install(|| copy_out(&mut dst[..small], &src[..small], true)),
            1
        );
    }
}
