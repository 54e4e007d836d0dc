//! Penetration depth on the GPU: GJK over every pair, then EPA over only the pairs whose cores overlap.
//!
//! Per chunk, one submission: pass 1 (`penetration_gjk`) answers every pair it can and appends the rest to a
//! queue whose header doubles as indirect dispatch arguments; the header is copied to an indirect buffer (a
//! buffer cannot be storage and indirect in one pass) and pass 2 (`penetration_epa`) runs one invocation per
//! queued pair. Separated pairs therefore cost one GJK in distance mode and nothing more. On software adapters
//! the queue is kept in pair order instead, so a batch repeats bit for bit ([`EpaOrder`]). The answers come back
//! as one 48-byte [`PackedContact`] per pair, or in full (GJK's answer and the penetration answer, 96 bytes).

use super::binning::WorkBins;
use super::copy_out::{copy_out, parallel_copy_on};
use super::epa_kernel::EpaKernel;
use super::layout::{GpuEpaTask, GpuPenetration, EPA_QUEUE_HEADER, RESULT_STRIDE};
use super::packed::{PackedContact, PenetrationFormat};
use super::pipeline::{bind_group_layout, Access, Dispatch, KernelPipelines, SCENE_BINDINGS};
use super::runner::{GpuTimings, KernelJob, OutputSpec, Read};
use super::shader::constants::Climbing;
use super::shader::{PENETRATION_EPA, PENETRATION_EPA_SCRATCH, PENETRATION_GJK};
use crate::epa::Penetration;
use crate::gjk::GjkResult;

const PENETRATION_STRIDE: u64 = std::mem::size_of::<GpuPenetration>() as u64;
const CONTACT_STRIDE: u64 = std::mem::size_of::<PackedContact>() as u64;
const TASK_STRIDE: u64 = std::mem::size_of::<GpuEpaTask>() as u64;
/// Indirect dispatch arguments: workgroups in x, y, z.
const INDIRECT_BYTES: u64 = 12;
/// Where the queue's task count sits in its header (after the three dispatch arguments).
const QUEUE_COUNT_OFFSET: u64 = 12;
/// An empty queue: no workgroups for pass 2, one in y and z, no tasks.
const EMPTY_QUEUE: [u8; 16] = [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];

/// Results of one penetration batch as CPU types, in pair order and each pair's local frame (A's frame)
/// (`NarrowPhase::run_penetration`).
pub struct GpuPenetrationBatch {
    /// GJK's distance answers (as `NarrowPhase::run` in distance mode).
    pub results: Vec<GjkResult<f32>>,
    /// Depth, normal and contact points; a named status where no answer was found.
    pub penetrations: Vec<Penetration<f32>>,
    pub timings: GpuTimings,
    /// Pairs that went through the EPA pass (cores overlapping).
    pub epa_pairs: usize,
    /// Pairs whose GPU answer carried a failure status and were answered again on the CPU by
    /// `GpuPenetrationBatch::resolve_failures_on_cpu` (in [`crate::resolve`]).
    pub resolved_on_cpu: usize,
}

/// One penetration batch's packed records, borrowed from the narrow phase until its next batch.
#[derive(Clone, Copy, Debug)]
pub struct ContactRecords<'a> {
    pub records: &'a [PackedContact],
    /// Pairs that went through the EPA pass.
    pub epa_pairs: usize,
    pub timings: GpuTimings,
}

// Pass 2 packs a group's queued pairs with one bit per lane in two words (`queued_lanes` in
// shaders/penetration_epa.wgsl).
const _: () = assert!(super::WORKGROUP_SIZE <= 64);

/// How pass 2 finds its pairs in the EPA queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EpaOrder {
    /// The queued pairs first, in the order of pass 1's atomic appends, and pass 2 dispatched indirectly over
    /// just those: every thread of pass 2 does EPA. The order varies run to run, which changes no answer where
    /// each invocation has loops of its own (hardware adapters).
    Appended,
    /// Pair `i`'s task at slot `i` and pass 2 over every pair, so its groups are pass 1's, the same every run;
    /// each group packs its queued pairs to its first lanes in pair order.
    /// Software adapters (llvmpipe, lavapipe) share one loop budget among a group's invocations, so which
    /// pairs come back `gpu_loop_limit` depends on who shares a group; in pair order it depends on the batch
    /// alone (docs/gpu.md, "Determinism").
    ByPair,
}

impl EpaOrder {
    /// `ByPair` on a software adapter (the loop budget), `Appended` elsewhere.
    fn for_device(device: &wgpu::Device) -> Self {
        if device.adapter_info().device_type == wgpu::DeviceType::Cpu {
            Self::ByPair
        } else {
            Self::Appended
        }
    }
}

/// The penetration kernels' job: two passes and four outputs (GJK results, penetrations, the EPA queue, the EPA
/// scratch buffer).
pub(super) struct PenetrationJob {
    layout: wgpu::BindGroupLayout,
    gjk_pass: KernelPipelines,
    /// The EPA pass with the polytope in private memory, and with it in the scratch buffer (built when first
    /// chosen); `epa_kernel` says which one runs.
    epa_pass: KernelPipelines,
    epa_scratch_pass: Option<KernelPipelines>,
    epa_kernel: EpaKernel,
    format: PenetrationFormat,
    outputs: [OutputSpec; 4],
    epa_order: EpaOrder,
    /// The adapter's own order, which `epa_order` returns to after a batch that reads the queue back.
    device_order: EpaOrder,
    /// With the queue read back ([`PenetrationJob::read_queue`]): whether each dispatched pair went through the
    /// EPA pass, in dispatch order.
    pub(super) queued: Option<Vec<bool>>,
    /// Whether the kernels keep wgpu's runtime checks ([`super::ShaderChecks`]).
    checked: bool,
    /// Whether records are copied out on every thread ([`parallel_copy_on`]).
    parallel_copy: bool,
    /// Pass 2's dispatch arguments. Every adapter with compute shaders runs indirect dispatches (GL 4.3 and
    /// GLES 3.1 brought both), so there is no direct fallback.
    indirect: wgpu::Buffer,
    /// GJK's full answers (full format only) and the penetration records, as words in pair order.
    pub(super) result_words: Vec<u32>,
    pub(super) penetration_words: Vec<u32>,
    pub(super) epa_pairs: usize,
}

impl PenetrationJob {
    /// Uses the kernels with or without the hull climb, as the scene's hulls need.
    pub(super) fn select(&mut self, device: &wgpu::Device, climbing: Climbing) {
        self.gjk_pass.select(device, climbing);
        self.epa_pass.select(device, climbing);
        if let Some(pass) = &mut self.epa_scratch_pass {
            pass.select(device, climbing);
        }
    }

    /// Whether the two passes carry the hull climb, when they agree.
    pub(super) fn climbing(&self) -> Option<Climbing> {
        let gjk = self.gjk_pass.active_climbing();
        (gjk == self.active_epa_pass().active_climbing()).then_some(gjk)
    }

    /// Runs EPA with the polytope where `kernel` keeps it, building that kernel if needed (a shader compile) and
    /// sizing the scratch output for it. Between batches only.
    pub(super) fn set_epa_kernel(&mut self, device: &wgpu::Device, kernel: EpaKernel) {
        if kernel == EpaKernel::Scratch && self.epa_scratch_pass.is_none() {
            let climbing = self.gjk_pass.active_climbing();
            self.epa_scratch_pass = Some(KernelPipelines::new(
                device,
                &PENETRATION_EPA_SCRATCH,
                &self.layout,
                climbing,
                self.checked,
            ));
        }
        self.epa_kernel = kernel;
        // Once made for the scratch kernel the buffers stay that size, like the other outputs' largest stride,
        // so the kernels can alternate without remaking the ring (and run the same chunks).
        let bytes = kernel.scratch_bytes_per_pair();
        self.outputs[3].stride = bytes;
        self.outputs[3].max_stride = self.outputs[3].max_stride.max(bytes);
    }

    /// While `on`, batches keep the EPA queue in pair order (as on software adapters) and read its tasks back, so
    /// `queued` says which dispatched pairs went through the EPA pass; off, the adapter's own order and only the
    /// queue's count come back. Between batches only.
    pub(super) fn read_queue(&mut self, on: bool) {
        self.epa_order = if on {
            EpaOrder::ByPair
        } else {
            self.device_order
        };
        self.outputs[2].read = if on {
            Read::PerPair
        } else {
            Read::Header {
                offset: QUEUE_COUNT_OFFSET,
                len: 4,
            }
        };
        self.queued = on.then(Vec::new);
    }

    fn active_epa_pass(&self) -> &KernelPipelines {
        match (self.epa_kernel, &self.epa_scratch_pass) {
            (EpaKernel::Scratch, Some(pass)) => pass,
            _ => &self.epa_pass,
        }
    }

    pub(super) fn new(
        device: &wgpu::Device,
        climbing: Climbing,
        kernel: EpaKernel,
        checked: bool,
    ) -> Self {
        let mut bindings = SCENE_BINDINGS.to_vec();
        bindings.extend([Access::ReadWrite; 4]);
        let layout = bind_group_layout(device, "penetration bindings", &bindings);
        let per_pair = |label, stride| OutputSpec {
            label,
            stride,
            max_stride: stride,
            header: 0,
            init: &[],
            read: Read::PerPair,
            shared: false,
        };
        let mut job = Self {
            gjk_pass: KernelPipelines::new(device, &PENETRATION_GJK, &layout, climbing, checked),
            epa_pass: KernelPipelines::new(device, &PENETRATION_EPA, &layout, climbing, checked),
            epa_scratch_pass: None,
            epa_kernel: EpaKernel::Private,
            layout,
            format: PenetrationFormat::Full,
            epa_order: EpaOrder::for_device(device),
            device_order: EpaOrder::for_device(device),
            queued: None,
            checked,
            parallel_copy: parallel_copy_on(device),
            outputs: [
                per_pair("results", RESULT_STRIDE),
                per_pair("penetrations", PENETRATION_STRIDE.max(CONTACT_STRIDE)),
                OutputSpec {
                    label: "epa queue",
                    stride: TASK_STRIDE,
                    max_stride: TASK_STRIDE,
                    header: EPA_QUEUE_HEADER,
                    init: &EMPTY_QUEUE,
                    read: Read::Header {
                        offset: QUEUE_COUNT_OFFSET,
                        len: 4,
                    },
                    shared: true,
                },
                // EPA's polytopes with `EpaKernel::Scratch`, one lane per pair of the chunk: the stride counts in
                // the chunk's capacity (each binding within the device's limit) and the kernel finds its lanes
                // from the binding's length. Only the device touches it, one chunk after the other.
                OutputSpec {
                    label: "epa scratch",
                    stride: 0,
                    max_stride: 0,
                    header: 0,
                    init: &[],
                    read: Read::Nothing,
                    shared: true,
                },
            ],
            indirect: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("epa indirect"),
                size: 16,
                usage: wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            result_words: Vec::new(),
            penetration_words: Vec::new(),
            epa_pairs: 0,
        };
        job.set_epa_kernel(device, kernel);
        job
    }

    pub(super) fn begin(&mut self, format: PenetrationFormat, pairs: usize) {
        self.format = format;
        self.outputs[0].stride = match format {
            PenetrationFormat::Full => RESULT_STRIDE,
            PenetrationFormat::Contact => 0,
        };
        self.outputs[1].stride = match format {
            PenetrationFormat::Full => PENETRATION_STRIDE,
            PenetrationFormat::Contact => CONTACT_STRIDE,
        };
        self.epa_pairs = 0;
        let grow = |words: &mut Vec<u32>, stride: u64| {
            let need = pairs * (stride / 4) as usize;
            if words.len() < need {
                words.resize(need, 0);
            }
        };
        grow(&mut self.result_words, self.outputs[0].stride);
        grow(&mut self.penetration_words, self.outputs[1].stride);
    }

    /// The EPA expansions of each of the batch's first `pairs` penetration records (full format).
    pub(super) fn penetration_iterations(&self, pairs: usize) -> Vec<u32> {
        let words = (PENETRATION_STRIDE / 4) as usize;
        let records: &[GpuPenetration] =
            bytemuck::cast_slice(&self.penetration_words[..pairs * words]);
        records.iter().map(|p| p.iterations).collect()
    }

    /// Moves the batch's records from dispatch order to pair order after a binned batch.
    pub(super) fn restore_order(&mut self, bins: &mut WorkBins) {
        for (words, output) in [&mut self.result_words, &mut self.penetration_words]
            .into_iter()
            .zip(&self.outputs)
        {
            if output.stride > 0 {
                bins.restore(words, (output.stride / 4) as usize);
            }
        }
    }

    pub(super) fn reserve(&mut self, pairs: usize) {
        let need = |stride: u64| pairs * (stride / 4) as usize;
        if self.penetration_words.len() < need(self.outputs[1].max_stride) {
            self.penetration_words
                .resize(need(self.outputs[1].max_stride), 0);
        }
    }
}

impl KernelJob for PenetrationJob {
    fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    fn outputs(&self) -> &[OutputSpec] {
        &self.outputs
    }

    fn format(&self) -> u32 {
        self.format as u32
    }

    fn epa_by_pair(&self) -> bool {
        self.epa_order == EpaOrder::ByPair
    }

    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        _first: usize,
        dispatch: Dispatch<'_>,
        timestamps: Option<&wgpu::QuerySet>,
        outputs: &[wgpu::Buffer],
    ) {
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("penetration gjk"),
                timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            });
            pass.set_pipeline(self.gjk_pass.active());
            pass.set_bind_group(0, bind_group, &[]);
            dispatch.record(&mut pass);
        }
        if self.epa_order == EpaOrder::Appended {
            encoder.copy_buffer_to_buffer(&outputs[2], 0, &self.indirect, 0, INDIRECT_BYTES);
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("penetration epa"),
            timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: None,
                end_of_pass_write_index: Some(1),
            }),
        });
        pass.set_pipeline(self.active_epa_pass().active());
        pass.set_bind_group(0, bind_group, &[]);
        match self.epa_order {
            EpaOrder::Appended => pass.dispatch_workgroups_indirect(&self.indirect, 0),
            EpaOrder::ByPair => dispatch.record(&mut pass),
        }
    }

    fn collect(&mut self, first: usize, outputs: &[&[u8]]) {
        let parallel = self.parallel_copy;
        let copy = |words: &mut Vec<u32>, stride: u64, bytes: &[u8]| {
            let at = first * (stride / 4) as usize;
            copy_out(
                bytemuck::cast_slice_mut::<u32, u8>(&mut words[at..at + bytes.len() / 4]),
                bytes,
                parallel,
            );
        };
        copy(&mut self.result_words, self.outputs[0].stride, outputs[0]);
        copy(
            &mut self.penetration_words,
            self.outputs[1].stride,
            outputs[1],
        );
        match &mut self.queued {
            // Each task's third word is its `queued` flag (`EpaTask` in shaders/shared/types.wgsl).
            Some(queued) => {
                let before = queued.len();
                queued.extend(
                    outputs[2]
                        .chunks(TASK_STRIDE as usize)
                        .map(|task| bytemuck::pod_read_unaligned::<u32>(&task[8..12]) != 0),
                );
                self.epa_pairs += queued[before..].iter().filter(|&&q| q).count();
            }
            None => self.epa_pairs += bytemuck::pod_read_unaligned::<u32>(outputs[2]) as usize,
        }
    }
}
