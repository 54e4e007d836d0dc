//! Which kernel scans the biggest scanned hulls in distance and intersection batches: one invocation per pair
//! reading every point (shaders/shared/scan_thread.wgsl), or one subgroup per pair, its lanes sharing each scan
//! and reducing with subgroupMax and subgroupMin (shaders/shared/scan_subgroup.wgsl, shaders/gjk_subgroup.wgsl).
//! Both give the same bits. The subgroup kernel needs wgpu's `SUBGROUP` feature (lavapipe, Vulkan, Metal and
//! DX12 GPUs have it; wgpu's OpenGL backend does not); without it the per-thread kernel answers every pair.

use super::WORKGROUP_SIZE;

/// How the GJK batches scan the hulls of the pairs whose support calls read the most points
/// ([`super::NarrowPhase::set_scan_kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKernel {
    /// One invocation per pair reads every point of each scan.
    PerThread,
    /// One subgroup per pair for the pairs with a scanned hull of [`SUBGROUP_SCAN_MIN_POINTS`] points or more:
    /// lane `l` of `S` reads points `l`, `l + S`, ..., so a subgroup's reads are neighbours in memory, and each
    /// lane reads a scan's `1 / S`. The other pairs stay one invocation each.
    Subgroup,
}

/// The fewest points of a scanned hull (one without adjacency: fewer than 256 vertices, or a raw set uploaded
/// as given) whose pairs the subgroup kernel answers: above `RAW_HULL_MIN_POINTS`, the size up to which raw sets
/// are small enough to go up as they are.
pub const SUBGROUP_SCAN_MIN_POINTS: u32 = 65;

impl ScanKernel {
    pub const ALL: [ScanKernel; 2] = [ScanKernel::PerThread, ScanKernel::Subgroup];

    /// Whether `device` can run [`ScanKernel::Subgroup`]: it was created with wgpu's `SUBGROUP` feature
    /// ([`super::GpuContext`] asks for it where the adapter has it).
    pub fn available_on(device: &wgpu::Device) -> bool {
        device.features().contains(wgpu::Features::SUBGROUP)
    }

    /// The kernel a narrow phase starts with: [`ScanKernel::Subgroup`] where the device has subgroups, but on a
    /// software adapter (lavapipe), which runs a subgroup as one CPU SIMD vector, so that the per-thread scan of 8
    /// pairs a vector already fills it, and measured the subgroup scan slower (docs/benchmarks.md); else
    /// [`ScanKernel::PerThread`].
    pub fn for_device(device: &wgpu::Device) -> Self {
        let software = device.adapter_info().device_type == wgpu::DeviceType::Cpu;
        if Self::available_on(device) && !software {
            ScanKernel::Subgroup
        } else {
            ScanKernel::PerThread
        }
    }

    /// The name on the command line and in reports: `per-thread` or `subgroup`.
    pub fn name(self) -> &'static str {
        match self {
            ScanKernel::PerThread => "per-thread",
            ScanKernel::Subgroup => "subgroup",
        }
    }

    /// The kernel called `name` ([`ScanKernel::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Pairs one workgroup of the subgroup kernel answers at the adapter's smallest subgroup size (8 on lavapipe,
/// 32 on NVIDIA): the dispatch is sized by it, and the kernel's subgroups stride over whatever it leaves.
pub(super) fn subgroup_pairs_per_workgroup(device: &wgpu::Device) -> u32 {
    let smallest = device.adapter_info().subgroup_min_size.max(1);
    (WORKGROUP_SIZE / smallest).max(1)
}

#[cfg(test)]
mod tests {
    use super::ScanKernel;

    #[test]
    fn names_parse_back() {
        for k in ScanKernel::ALL {
            assert_eq!(ScanKernel::from_name(k.name()), Some(k));
        }
        assert_eq!(ScanKernel::from_name("warp"), None);
    }
}
