//! Which EPA kernel the penetration query's second pass runs: the polytope in private memory per invocation, or
//! in a global scratch buffer, lane-major (shaders/shared/epa/storage_private.wgsl and storage_scratch.wgsl).
//! Both give the same answers (bit for bit on OpenGL, to rounding on Vulkan: docs/gpu.md); they differ in where
//! the polytope's 4.3 to 4.9 KB per pair live.

use super::epa_scratch::EPA_SCRATCH_WORDS;
use super::shader::private_memory::private_bytes;
use super::shader::{PENETRATION_EPA, PENETRATION_EPA_SCRATCH};

/// Where the EPA pass keeps its polytope ([`super::NarrowPhase::set_epa_kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpaKernel {
    /// Fixed arrays in private memory: on a GPU, local memory with one address per lane.
    Private,
    /// A global scratch buffer sized per chunk, one lane per invocation, structure of arrays, lane-major within
    /// tiles of a workgroup's lanes, so a SIMD vector's accesses to one word are neighbours.
    Scratch,
}

impl EpaKernel {
    pub const ALL: [EpaKernel; 2] = [EpaKernel::Private, EpaKernel::Scratch];

    /// The kernel a narrow phase starts with: [`EpaKernel::Private`] on a software adapter (llvmpipe, lavapipe),
    /// where private arrays are ordinary memory of the CPU thread running a SIMD vector and measured faster
    /// (docs/benchmarks.md), [`EpaKernel::Scratch`] on every other adapter.
    pub fn for_device(device: &wgpu::Device) -> Self {
        if device.adapter_info().device_type == wgpu::DeviceType::Cpu {
            EpaKernel::Private
        } else {
            EpaKernel::Scratch
        }
    }

    /// The name on the command line and in reports: `private` or `scratch`.
    pub fn name(self) -> &'static str {
        match self {
            EpaKernel::Private => "private",
            EpaKernel::Scratch => "scratch",
        }
    }

    /// The kernel called `name` ([`EpaKernel::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Bytes of scratch buffer per pair of a chunk (0 for [`EpaKernel::Private`]).
    pub fn scratch_bytes_per_pair(self) -> u64 {
        match self {
            EpaKernel::Private => 0,
            EpaKernel::Scratch => u64::from(EPA_SCRATCH_WORDS) * 4,
        }
    }

    /// Bytes of private memory one invocation of this EPA entry point needs, from naga's IR
    /// ([`private_bytes`]: the `var<private>` globals it reaches and the local variables of the functions it
    /// calls).
    pub fn private_bytes_per_invocation(self) -> u64 {
        let kernel = match self {
            EpaKernel::Private => &PENETRATION_EPA,
            EpaKernel::Scratch => &PENETRATION_EPA_SCRATCH,
        };
        let source = kernel.source_for(super::shader::constants::Climbing::Compiled);
        private_bytes(&source, kernel.name)
            .expect("the EPA kernels parse (checked by the layout tests)")
    }
}
