//! The GPU broad phase: the candidate pairs of a frame's boxes found on the device
//! (`shaders/broad_phase_grid.wgsl`), the same set as the CPU grid's ([`crate::broad_phase::grid_pairs`]), in a
//! pair buffer that the narrow phase can read where it lies. The host uploads the boxes and reads back one word,
//! the number of pairs found; the pairs themselves come back only when asked ([`GpuBroadPhase::read_pairs`]).
//!
//! The pair buffer has a capacity. The kernel's counter keeps counting past it, so a frame whose pairs do not fit
//! says how many there were: it is reported as an overflow ([`BroadPhaseStatus::overflowed`], and
//! [`GpuBroadPhase::overflows`] counts them), and the buffer grows to hold them for the next frame. Pairs are
//! never cut silently.

pub mod grid;

use super::pass_times::TimedPass;
use super::pipeline::{bind_group, bind_group_layout, read_buffer, storage, workgroups, Access};
use super::{GpuError, WORKGROUP_SIZE};
use crate::broad_phase::Aabb;
use grid::{table_size, GridFit, CELL_BITS, MAX_CELL};

/// The kernel file, assembled after the constants of [`shader_source`].
const SHADER: &str = include_str!("../../../shaders/broad_phase_grid.wgsl");

/// The pair capacity a new broad phase starts with.
pub const DEFAULT_PAIR_CAPACITY: u32 = 1 << 14;

/// The shader with its constants emitted from Rust.
fn shader_source() -> String {
    format!(
        "// Generated from Rust by src/gpu/broad/mod.rs.\nconst WORKGROUP_SIZE: u32 = {WORKGROUP_SIZE}u;\n\
         const CELL_BITS: u32 = {CELL_BITS}u;\nconst MAX_CELL: u32 = {MAX_CELL}u;\n{SHADER}"
    )
}

/// The kernel's parameters, as `BroadParams` in the WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct BroadParams {
    origin: [f32; 3],
    inverse_cell: f32,
    box_count: u32,
    table_mask: u32,
    pair_capacity: u32,
    _pad: u32,
}

/// What one frame's broad phase found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BroadPhaseStatus {
    /// Pairs whose boxes overlap, all of them, whether or not they fit.
    pub found: u32,
    /// Pairs in the pair buffer: `found`, or the capacity when they did not fit.
    pub stored: u32,
    /// The capacity this frame ran with.
    pub capacity: u32,
    /// The indirect dispatch the kernels wrote beside the count: one [`WORKGROUP_SIZE`] invocation per stored
    /// pair, for a kernel that reads the pairs where they lie.
    pub dispatch: [u32; 3],
}

impl BroadPhaseStatus {
    /// Whether pairs were left out of the buffer (the next frame's buffer holds them).
    pub fn overflowed(&self) -> bool {
        self.found > self.stored
    }
}

/// The four passes.
struct Pipelines {
    keys: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    pairs: wgpu::ComputePipeline,
    dispatch_args: wgpu::ComputePipeline,
}

/// The device buffers, sized for a box count and a pair capacity.
struct Buffers {
    boxes_capacity: usize,
    pair_capacity: u32,
    table: u32,
    params: wgpu::Buffer,
    boxes: wgpu::Buffer,
    counts: wgpu::Buffer,
    pairs: wgpu::Buffer,
    /// Word 0: pairs found; words 1 to 3: the indirect dispatch over the stored pairs.
    pair_count: wgpu::Buffer,
    count_readback: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

/// The GPU broad phase bound to one device.
pub struct GpuBroadPhase {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipelines: Pipelines,
    buffers: Option<Buffers>,
    pair_capacity: u32,
    staged: Vec<[f32; 4]>,
    overflows: u64,
    /// The queries the grid's pass writes its start and end into, when timed.
    timed: Option<TimedPass>,
}

impl GpuBroadPhase {
    /// A broad phase whose pair buffer starts at [`DEFAULT_PAIR_CAPACITY`] pairs.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_capacity(device, queue, DEFAULT_PAIR_CAPACITY)
    }

    /// A broad phase whose pair buffer starts at `pair_capacity` pairs (tests force overflows with a small one).
    pub fn with_capacity(device: &wgpu::Device, queue: &wgpu::Queue, pair_capacity: u32) -> Self {
        use Access::{Read, ReadWrite, Uniform};
        let layout = bind_group_layout(
            device,
            "broad phase",
            &[
                Uniform, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
            ],
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("shaders/broad_phase_grid.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("broad phase"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let pipelines = Pipelines {
            keys: pipeline("broad_cell_keys"),
            scan: pipeline("broad_scan"),
            scatter: pipeline("broad_scatter"),
            pairs: pipeline("broad_pairs"),
            dispatch_args: pipeline("broad_dispatch_args"),
        };
        Self {
            device: device.clone(),
            queue: queue.clone(),
            layout,
            pipelines,
            buffers: None,
            pair_capacity: pair_capacity.max(1),
            staged: Vec::new(),
            overflows: 0,
            timed: None,
        }
    }

    /// The device the broad phase runs on.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The pair capacity the next frame runs with.
    pub fn pair_capacity(&self) -> u32 {
        self.pair_capacity
    }

    /// Frames whose pairs did not fit their buffer, since this broad phase was made.
    pub fn overflows(&self) -> u64 {
        self.overflows
    }

    /// The pair buffer (`vec2<u32>` each, `i < j`, in no particular order) and the count buffer (word 0: pairs
    /// found; words 1 to 3: an indirect dispatch of one [`WORKGROUP_SIZE`] invocation per stored pair), valid
    /// after [`GpuBroadPhase::encode`].
    pub fn buffers(&self) -> Option<(&wgpu::Buffer, &wgpu::Buffer)> {
        self.buffers.as_ref().map(|b| (&b.pairs, &b.pair_count))
    }

    /// Makes the buffers fit `boxes` boxes and the current pair capacity.
    fn ensure_buffers(&mut self, boxes: usize) {
        let table = table_size(boxes);
        if let Some(b) = &self.buffers {
            if b.boxes_capacity >= boxes
                && b.pair_capacity == self.pair_capacity
                && b.table == table
            {
                return;
            }
        }
        let device = &self.device;
        let boxes_capacity = boxes.max(1).next_power_of_two();
        use wgpu::BufferUsages as U;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("broad phase parameters"),
            size: std::mem::size_of::<BroadParams>() as u64,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        let n = boxes_capacity as u64;
        let boxes_buffer = storage(device, "broad phase boxes", n * 32, U::COPY_DST);
        let keys = storage(device, "broad phase cell keys", n * 4, U::empty());
        let counts = storage(
            device,
            "broad phase bucket counts",
            u64::from(table) * 4,
            U::COPY_DST,
        );
        let starts = storage(
            device,
            "broad phase bucket starts",
            u64::from(table + 1) * 4,
            U::empty(),
        );
        let sorted = storage(device, "broad phase boxes by bucket", n * 4, U::empty());
        let pairs = storage(
            device,
            "broad phase pairs",
            u64::from(self.pair_capacity) * 8,
            U::COPY_SRC,
        );
        let pair_count = storage(
            device,
            "broad phase pair count",
            16,
            U::COPY_SRC | U::COPY_DST | U::INDIRECT,
        );
        let count_readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("broad phase pair count readback"),
            size: 16,
            usage: U::MAP_READ | U::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = bind_group(
            device,
            "broad phase",
            &self.layout,
            &[
                (&params, None),
                (&boxes_buffer, None),
                (&keys, None),
                (&counts, None),
                (&starts, None),
                (&sorted, None),
                (&pairs, None),
                (&pair_count, None),
            ],
        );
        self.buffers = Some(Buffers {
            boxes_capacity,
            pair_capacity: self.pair_capacity,
            table,
            params,
            boxes: boxes_buffer,
            counts,
            pairs,
            pair_count,
            count_readback,
            bind_group,
        });
    }

    /// Uploads `boxes` and records the passes that find their pairs into `encoder`, with the copy of the pair
    /// count into the readback buffer that [`GpuBroadPhase::finish`] maps. Bytes uploaded: 32 per box and 32 of
    /// parameters. Boxes no grid can hold (a coordinate not finite, a span beyond float32) are refused, naming
    /// the box; the CPU grid answers them.
    pub fn encode(
        &mut self,
        boxes: &[Aabb],
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), GpuError> {
        let fit =
            GridFit::fit(boxes).map_err(|e| GpuError::BadIndex(format!("broad phase: {e}")))?;
        let max_dispatch = u64::from(self.device.limits().max_compute_workgroups_per_dimension);
        if boxes.len() as u64 > max_dispatch * u64::from(WORKGROUP_SIZE) {
            return Err(GpuError::BadIndex(format!(
                "broad phase: {} boxes exceed one dispatch ({} workgroups of {WORKGROUP_SIZE})",
                boxes.len(),
                max_dispatch
            )));
        }
        self.ensure_buffers(boxes.len());
        let b = self.buffers.as_ref().expect("just made");
        self.staged.clear();
        self.staged.extend(
            boxes
                .iter()
                .flat_map(|a| [a.min.extend(0.0).to_array(), a.max.extend(0.0).to_array()]),
        );
        if !self.staged.is_empty() {
            self.queue
                .write_buffer(&b.boxes, 0, bytemuck::cast_slice(&self.staged));
        }
        self.record(&fit, boxes.len(), encoder);
        Ok(())
    }

    /// Records the passes over `count` boxes that never leave the device: `write_boxes` records, into the
    /// encoder, what writes them into the box buffer it is given (box `i`'s minimum at `vec4` `2i`, maximum at
    /// `2i + 1`), and `fit` is a grid that holds every one of them. Bytes uploaded: the 32 of parameters.
    pub fn encode_device_boxes(
        &mut self,
        fit: &GridFit,
        count: usize,
        encoder: &mut wgpu::CommandEncoder,
        write_boxes: impl FnOnce(&wgpu::Buffer, &mut wgpu::CommandEncoder),
    ) -> Result<(), GpuError> {
        let max_dispatch = u64::from(self.device.limits().max_compute_workgroups_per_dimension);
        if count as u64 > max_dispatch * u64::from(WORKGROUP_SIZE) {
            return Err(GpuError::BadIndex(format!(
                "broad phase: {count} boxes exceed one dispatch ({max_dispatch} workgroups of \
                 {WORKGROUP_SIZE})"
            )));
        }
        self.ensure_buffers(count);
        let b = self.buffers.as_ref().expect("just made");
        write_boxes(&b.boxes, encoder);
        self.record(fit, count, encoder);
        Ok(())
    }

    /// Times the grid's compute pass from now on into `timed` (its start and end timestamps), or no longer.
    pub fn time_pass(&mut self, timed: Option<TimedPass>) {
        self.timed = timed;
    }

    /// Writes the parameters and records the passes over the `count` boxes in the box buffer, with the copy of
    /// the pair count into its readback buffer.
    fn record(&self, fit: &GridFit, count: usize, encoder: &mut wgpu::CommandEncoder) {
        let b = self.buffers.as_ref().expect("made by the caller");
        let params = BroadParams {
            origin: fit.origin,
            inverse_cell: fit.inverse_cell,
            box_count: count as u32,
            table_mask: b.table - 1,
            pair_capacity: b.pair_capacity,
            _pad: 0,
        };
        self.queue
            .write_buffer(&b.params, 0, bytemuck::bytes_of(&params));
        encoder.clear_buffer(&b.counts, 0, None);
        encoder.clear_buffer(&b.pair_count, 0, None);
        let per_box = workgroups(count as u32);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("broad phase"),
                timestamp_writes: self.timed.as_ref().map(TimedPass::writes),
            });
            pass.set_bind_group(0, &b.bind_group, &[]);
            if per_box > 0 {
                pass.set_pipeline(&self.pipelines.keys);
                pass.dispatch_workgroups(per_box, 1, 1);
            }
            pass.set_pipeline(&self.pipelines.scan);
            pass.dispatch_workgroups(1, 1, 1);
            if per_box > 0 {
                pass.set_pipeline(&self.pipelines.scatter);
                pass.dispatch_workgroups(per_box, 1, 1);
                pass.set_pipeline(&self.pipelines.pairs);
                pass.dispatch_workgroups(per_box, 1, 1);
            }
            pass.set_pipeline(&self.pipelines.dispatch_args);
            pass.dispatch_workgroups(1, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&b.pair_count, 0, &b.count_readback, 0, 16);
    }

    /// Reads the pair count of the submitted frame (16 bytes, one blocking wait), counts an overflow and grows
    /// the pair buffer for the next frame when the pairs did not fit.
    pub fn finish(&mut self) -> Result<BroadPhaseStatus, GpuError> {
        let b = self
            .buffers
            .as_ref()
            .ok_or_else(|| GpuError::Readback("the broad phase has not run".into()))?;
        let words: Vec<u32> = read_buffer(&self.device, &b.count_readback, 16, |bytes| {
            bytemuck::pod_collect_to_vec(bytes)
        })?;
        let found = words[0];
        let status = BroadPhaseStatus {
            found,
            dispatch: [words[1], words[2], words[3]],
            stored: found.min(b.pair_capacity),
            capacity: b.pair_capacity,
        };
        self.note_found(found, status.capacity);
        Ok(status)
    }

    /// Takes a frame's pair count, read back whenever it came (a frame whose pairs stayed on the device reads it
    /// after its narrow phase, or a frame later): when the `found` pairs outgrew the `capacity` that frame ran
    /// with, counts an overflow and grows the pair buffer for the next frame. Returns whether it overflowed.
    pub fn note_found(&mut self, found: u32, capacity: u32) -> bool {
        if found <= capacity {
            return false;
        }
        self.overflows += 1;
        // A quarter more than needed, so a scene that keeps growing does not overflow every frame.
        self.pair_capacity = self.pair_capacity.max(found.saturating_add(found / 4));
        true
    }

    /// Makes the next frame's pair buffer hold at least `pairs` pairs.
    pub fn reserve_pairs(&mut self, pairs: u32) {
        self.pair_capacity = self.pair_capacity.max(pairs);
    }

    /// The pair capacity of the buffers the latest frame ran with.
    pub fn buffer_capacity(&self) -> Option<u32> {
        self.buffers.as_ref().map(|b| b.pair_capacity)
    }

    /// Encodes, submits and finishes one frame: the pair count, with the pairs still on the device.
    pub fn run(&mut self, boxes: &[Aabb]) -> Result<BroadPhaseStatus, GpuError> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("broad phase"),
            });
        self.encode(boxes, &mut encoder)?;
        self.queue.submit([encoder.finish()]);
        self.finish()
    }

    /// Reads back the first `count` stored pairs (`[i, j]`, `i < j`, in the kernel's order), waiting for the
    /// device: for tests, tools and the full check, never for a frame at scale.
    pub fn read_pairs(&self, count: u32) -> Result<Vec<[u32; 2]>, GpuError> {
        let Some(b) = &self.buffers else {
            return Ok(Vec::new());
        };
        let count = count.min(b.pair_capacity);
        if count == 0 {
            return Ok(Vec::new());
        }
        let bytes = u64::from(count) * 8;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("broad phase pairs readback"),
            size: bytes.next_multiple_of(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("broad phase pairs readback"),
            });
        encoder.copy_buffer_to_buffer(&b.pairs, 0, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        read_buffer(&self.device, &readback, bytes, |bytes| {
            bytemuck::pod_collect_to_vec::<u8, [u32; 2]>(bytes)
        })
    }

    /// Finds the pairs of `boxes` and reads them back, sorted (what [`crate::broad_phase::grid_pairs`]
    /// answers), with the frame's status. When they overflowed, the pairs are the ones that fit.
    pub fn find_pairs(
        &mut self,
        boxes: &[Aabb],
    ) -> Result<(Vec<[u32; 2]>, BroadPhaseStatus), GpuError> {
        let status = self.run(boxes)?;
        let mut pairs = self.read_pairs(status.stored)?;
        pairs.sort_unstable();
        Ok((pairs, status))
    }
}
