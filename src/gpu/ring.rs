//! The ring of chunk slots a batch streams through. Each slot holds what one chunk needs on both sides of the
//! bus: a staging buffer the host fills directly while it is mapped (settings, output headers, pairs), the
//! device buffers the kernel binds, and a readback buffer for the chunk's outputs and kernel timestamps. A slot
//! is mapped again as soon as its chunk is submitted, so it is ready when its turn comes round.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// What of an output comes back after each chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// The chunk's records, `stride` bytes per pair after the header.
    PerPair,
    /// `len` bytes of the header at `offset` (a queue's count).
    Header { offset: u64, len: u64 },
    /// Nothing (the output stays on the GPU).
    Nothing,
}

/// A kernel's output binding.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OutputSpec {
    pub label: &'static str,
    /// Bytes per pair in the batch's format (0: not written in this format).
    pub stride: u64,
    /// The largest stride of any format: the buffers are made for it, so formats can alternate.
    pub max_stride: u64,
    /// Bytes before the per-pair records.
    pub header: u64,
    /// Copied over the header before each chunk (a queue's dispatch arguments and count); empty for none.
    pub init: &'static [u8],
    pub read: Read,
    /// One buffer for the whole ring (scratch that only the device reads between chunks).
    pub shared: bool,
}

/// Bytes of the settings uniform at the head of the staging buffer.
pub const PARAMS_BYTES: u64 = std::mem::size_of::<super::layout::GpuParams>() as u64;
/// Bytes of the kernel timestamps at the head of the readback buffer (two u64 ticks).
pub const TIMESTAMP_BYTES: u64 = 16;

/// Where a mapping requested with `map_async` stands.
#[derive(Clone, Debug, Default)]
pub struct MapState(Arc<AtomicU8>);

const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

impl MapState {
    fn mapped() -> Self {
        Self(Arc::new(AtomicU8::new(MAPPED)))
    }

    /// `Some(true)` once mapped, `Some(false)` if the mapping failed, `None` while pending.
    pub fn get(&self) -> Option<bool> {
        match self.0.load(Ordering::Acquire) {
            PENDING => None,
            state => Some(state == MAPPED),
        }
    }

    /// Requests the mapping of `range` of `buffer`; the state follows the callback.
    pub fn request(&self, buffer: &wgpu::Buffer, mode: wgpu::MapMode, range: std::ops::Range<u64>) {
        self.0.store(PENDING, Ordering::Release);
        let state = Arc::clone(&self.0);
        buffer.map_async(mode, range, move |result| {
            let value = if result.is_ok() { MAPPED } else { FAILED };
            state.store(value, Ordering::Release);
        });
    }
}

/// Where each output's header bytes and the pairs sit in the staging buffer, and how large the readback buffer
/// is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlotLayout {
    /// Staging offset of each output's header bytes (0 when it has none).
    pub init_offsets: Vec<u64>,
    /// Staging offset of the pairs.
    pub pairs_offset: u64,
    /// Bytes of the readback buffer: the timestamps and every output at its largest stride.
    pub read_size: u64,
}

impl SlotLayout {
    /// The layout for `capacity` pairs with each output at its largest stride (so one slot serves every format).
    pub fn new(outputs: &[OutputSpec], capacity: u64) -> Self {
        let mut offset = PARAMS_BYTES;
        let init_offsets = outputs
            .iter()
            .map(|o| {
                let at = offset;
                offset = (offset + o.init.len() as u64).next_multiple_of(16);
                at
            })
            .collect();
        let read_size = outputs.iter().fold(TIMESTAMP_BYTES, |end, o| {
            (end + o.max_read_bytes(capacity)).next_multiple_of(8)
        });
        Self {
            init_offsets,
            pairs_offset: offset.next_multiple_of(16),
            read_size,
        }
    }
}

/// Where a chunk of `count` pairs puts each output in the readback buffer (after the timestamps, one after the
/// other, so the mapped range is exactly what was copied), and where the last one ends.
pub fn read_offsets(outputs: &[OutputSpec], count: u64) -> (Vec<u64>, u64) {
    let mut end = TIMESTAMP_BYTES;
    let offsets = outputs
        .iter()
        .map(|o| {
            let at = end.next_multiple_of(8);
            let len = o.read_range(count).1;
            if len > 0 {
                end = at + len;
            }
            at
        })
        .collect();
    (offsets, end)
}

/// A chunk submitted from a slot and not yet collected.
pub struct InFlight {
    /// Index of the chunk's first pair in the batch.
    pub first: usize,
    pub count: u64,
    pub submission: wgpu::SubmissionIndex,
    /// Bytes of the readback buffer holding the chunk's outputs (and timestamps).
    pub read_len: u64,
}

pub struct Slot {
    pub staging: wgpu::Buffer,
    pub staging_state: MapState,
    pub readback: wgpu::Buffer,
    pub readback_state: MapState,
    pub params: wgpu::Buffer,
    pub pairs: wgpu::Buffer,
    /// Every output the kernel binds, in binding order (shared ones are the ring's).
    pub outputs: Vec<wgpu::Buffer>,
    pub timestamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    /// The bind group and the scene binding it was made for ([`super::scene::SceneBinding::key`]).
    pub bind_group: Option<((u64, u64, bool), wgpu::BindGroup)>,
    pub in_flight: Option<InFlight>,
}

/// The slots of one kernel's batches, all of one capacity.
#[derive(Default)]
pub struct Ring {
    pub slots: Vec<Slot>,
    /// Outputs only the device touches between chunks (the EPA queue): one buffer for the whole ring, since
    /// chunks run in submission order.
    shared: Vec<Option<wgpu::Buffer>>,
    /// Pairs per slot.
    pub capacity: u64,
    pub layout: SlotLayout,
    /// Outputs the slots were made for, as (largest stride, header, shared, what is read back).
    made_for: Vec<(u64, u64, bool, Read)>,
}

fn buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
    mapped: bool,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.next_multiple_of(16).max(16),
        usage,
        mapped_at_creation: mapped,
    })
}

impl Ring {
    /// Makes sure the ring has `count` slots for at least `capacity` pairs each, with buffers for `outputs`.
    /// Slots only grow, so a warm-up at full size leaves nothing to allocate in later batches.
    pub fn ensure(
        &mut self,
        device: &wgpu::Device,
        outputs: &[OutputSpec],
        capacity: u64,
        count: usize,
    ) {
        let made_for: Vec<(u64, u64, bool, Read)> = outputs
            .iter()
            .map(|o| (o.max_stride, o.header, o.shared, o.read))
            .collect();
        if made_for != self.made_for || capacity > self.capacity {
            debug_assert!(self.slots.iter().all(|s| s.in_flight.is_none()));
            self.slots.clear();
            // Other outputs may allow fewer pairs a chunk (a larger stride under the same binding limit): the
            // capacity grows only while the outputs stay the same.
            if made_for != self.made_for {
                self.capacity = 0;
            }
            self.capacity = capacity.max(self.capacity);
            self.layout = SlotLayout::new(outputs, self.capacity);
            self.made_for = made_for;
            self.shared = outputs
                .iter()
                .map(|o| {
                    o.shared
                        .then(|| buffer(device, o.label, o.bytes(self.capacity), o.usage(), false))
                })
                .collect();
        }
        while self.slots.len() < count {
            let slot = self.make_slot(device, outputs);
            self.slots.push(slot);
        }
    }

    fn make_slot(&self, device: &wgpu::Device, outputs: &[OutputSpec]) -> Slot {
        let capacity = self.capacity;
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let timestamps = device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
            .then(|| {
                (
                    device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("kernel timestamps"),
                        ty: wgpu::QueryType::Timestamp,
                        count: 2,
                    }),
                    buffer(
                        device,
                        "timestamp resolve",
                        TIMESTAMP_BYTES,
                        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        false,
                    ),
                )
            });
        Slot {
            staging: buffer(
                device,
                "staging",
                self.layout.pairs_offset + capacity * super::layout::PAIR_STRIDE,
                wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                true,
            ),
            staging_state: MapState::mapped(),
            readback: buffer(
                device,
                "readback",
                self.layout.read_size,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                false,
            ),
            readback_state: MapState::default(),
            params: buffer(
                device,
                "params",
                PARAMS_BYTES,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                false,
            ),
            pairs: buffer(
                device,
                "pairs",
                capacity * super::layout::PAIR_STRIDE,
                storage,
                false,
            ),
            outputs: outputs
                .iter()
                .zip(&self.shared)
                .map(|(o, shared)| match shared {
                    Some(b) => b.clone(),
                    None => buffer(device, o.label, o.bytes(capacity), o.usage(), false),
                })
                .collect(),
            timestamps,
            bind_group: None,
            in_flight: None,
        }
    }
}

impl OutputSpec {
    /// Bytes of the output's buffer for `capacity` pairs at its largest stride.
    pub fn bytes(&self, capacity: u64) -> u64 {
        self.header + capacity * self.max_stride
    }

    fn usage(&self) -> wgpu::BufferUsages {
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST
    }

    /// The most bytes a chunk of `capacity` pairs reads back from this output, in any format.
    fn max_read_bytes(&self, capacity: u64) -> u64 {
        match self.read {
            Read::PerPair => capacity * self.max_stride,
            Read::Header { len, .. } => len,
            Read::Nothing => 0,
        }
    }

    /// (source offset, bytes) read back for `count` pairs in this batch's format.
    pub fn read_range(&self, count: u64) -> (u64, u64) {
        match self.read {
            Read::PerPair => (self.header, count * self.stride),
            Read::Header { offset, len } => (offset, len),
            Read::Nothing => (0, 0),
        }
    }
}
