//! The WGSL kernels, assembled: WGSL has no includes, so each kernel is the constants emitted from Rust, the
//! shared files it needs (`shaders/shared/`, each the twin of one Rust module) and its own file (one kernel per
//! file under `shaders/`).

pub mod constants;
#[cfg(test)]
mod indexing_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
pub(crate) mod naga_checks;
pub mod private_memory;
#[cfg(test)]
mod record_tests;
#[cfg(test)]
mod subgroup_tests;

/// A shared WGSL file, by path (for messages) and text.
pub(crate) struct SharedFile {
    pub path: &'static str,
    pub text: &'static str,
}

macro_rules! shared {
    ($path:literal) => {
        SharedFile {
            path: $path,
            text: include_str!(concat!("../../../shaders/", $path)),
        }
    };
}

/// What every kernel needs: the GPU structs and the scene bindings.
static SCENE_FILES: [SharedFile; 2] = [shared!("shared/types.wgsl"), shared!("shared/scene.wgsl")];

/// What the GJK kernels add: the GJK twin (layers 2 to 5) and their output; then one of the two support scans
/// below.
static GJK_FILES: [SharedFile; 9] = [
    shared!("shared/quaternion.wgsl"),
    shared!("shared/loop_budget.wgsl"),
    shared!("shared/work_counts.wgsl"),
    shared!("shared/support.wgsl"),
    shared!("shared/signed_volumes.wgsl"),
    shared!("shared/simplex.wgsl"),
    shared!("shared/solver.wgsl"),
    shared!("shared/pair.wgsl"),
    shared!("shared/output.wgsl"),
];

/// How a support call scans a hull's points: one invocation reads them all, or a subgroup's lanes share them
/// (`crate::gpu::ScanKernel`).
static THREAD_SCAN: SharedFile = shared!("shared/scan_thread.wgsl");
static SUBGROUP_SCAN: SharedFile = shared!("shared/scan_subgroup.wgsl");

/// What the penetration kernels add: the EPA twin (after the polytope's storage, one of the two below), their
/// outputs and the certificate.
static EPA_FILES: [SharedFile; 6] = [
    shared!("shared/epa/answer.wgsl"),
    shared!("shared/epa/polytope.wgsl"),
    shared!("shared/epa/blow_up.wgsl"),
    shared!("shared/epa/contact.wgsl"),
    shared!("shared/epa/expand.wgsl"),
    shared!("shared/penetration.wgsl"),
];

/// Where EPA's polytope lives (`crate::gpu::EpaKernel`): private arrays, or a global scratch buffer.
static PRIVATE_POLYTOPE: SharedFile = shared!("shared/epa/storage_private.wgsl");
static SCRATCH_POLYTOPE: SharedFile = shared!("shared/epa/storage_scratch.wgsl");

/// The shared files a kernel is assembled from, each set including the ones before it; the GJK set with its
/// support scan's file, the EPA set (which scans one invocation per pair) with the polytope's storage file.
#[derive(Clone, Copy)]
enum Needs {
    Scene,
    Gjk(&'static SharedFile),
    Epa(&'static SharedFile),
}

/// One compute kernel: an entry point in its own file.
pub(crate) struct Kernel {
    /// The kernel's name, also its entry point and its file's stem.
    pub name: &'static str,
    pub file: SharedFile,
    needs: Needs,
    /// Whether the kernel counts each pair's work (`COUNTING` = 1, shared/work_counts.wgsl).
    counting: bool,
}

/// GJK for every pair (`shaders/gjk.wgsl`).
pub(crate) const GJK: Kernel = Kernel {
    name: "gjk_kernel",
    file: shared!("gjk.wgsl"),
    needs: Needs::Gjk(&THREAD_SCAN),
    counting: false,
};

/// GJK for the pairs a chunk leaves to subgroups, one subgroup per pair sharing each support scan
/// (`shaders/gjk_subgroup.wgsl`); needs wgpu's `SUBGROUP` feature.
pub(crate) const GJK_SUBGROUP: Kernel = Kernel {
    name: "gjk_subgroup",
    file: shared!("gjk_subgroup.wgsl"),
    needs: Needs::Gjk(&SUBGROUP_SCAN),
    counting: false,
};

/// A kernel that answers nothing, for the host's own ceiling (`shaders/gjk_null.wgsl`).
pub(crate) const GJK_NULL: Kernel = Kernel {
    name: "gjk_null",
    file: shared!("gjk_null.wgsl"),
    needs: Needs::Gjk(&THREAD_SCAN),
    counting: false,
};

/// The GJK kernel counting each pair's work instead of answering (`shaders/gjk_counting.wgsl`).
pub(crate) const GJK_COUNTING: Kernel = Kernel {
    name: "gjk_counting",
    file: shared!("gjk_counting.wgsl"),
    needs: Needs::Gjk(&THREAD_SCAN),
    counting: true,
};

/// Pass 1 of the penetration query (`shaders/penetration_gjk.wgsl`).
pub(crate) const PENETRATION_GJK: Kernel = Kernel {
    name: "penetration_gjk",
    file: shared!("penetration_gjk.wgsl"),
    needs: Needs::Epa(&PRIVATE_POLYTOPE),
    counting: false,
};

/// Pass 2 of the penetration query (`shaders/penetration_epa.wgsl`).
pub(crate) const PENETRATION_EPA: Kernel = Kernel {
    name: "penetration_epa",
    file: shared!("penetration_epa.wgsl"),
    needs: Needs::Epa(&PRIVATE_POLYTOPE),
    counting: false,
};

/// Pass 2 of the penetration query with EPA's polytope in a global scratch buffer
/// (`shaders/penetration_epa.wgsl` over `shaders/shared/epa/storage_scratch.wgsl`).
pub(crate) const PENETRATION_EPA_SCRATCH: Kernel = Kernel {
    name: "penetration_epa",
    file: shared!("penetration_epa.wgsl"),
    needs: Needs::Epa(&SCRATCH_POLYTOPE),
    counting: false,
};

/// Marks each body from its pairs' GJK answers, after the GJK pass of a chunk (`shaders/mark_bodies.wgsl`).
pub(crate) const MARK_BODIES: Kernel = Kernel {
    name: "mark_bodies",
    file: shared!("mark_bodies.wgsl"),
    needs: Needs::Scene,
    counting: false,
};

/// Lists the pairs a chunk's GJK pass answered with a failure status, after it (`shaders/list_failures.wgsl`).
pub(crate) const LIST_FAILURES: Kernel = Kernel {
    name: "list_failures",
    file: shared!("list_failures.wgsl"),
    needs: Needs::Scene,
    counting: false,
};

/// Writes a device-fed chunk's indirect dispatch from the pair count on the device (`shaders/chunk_dispatch.wgsl`).
pub(crate) const CHUNK_DISPATCH: Kernel = Kernel {
    name: "chunk_dispatch",
    file: shared!("chunk_dispatch.wgsl"),
    needs: Needs::Scene,
    counting: false,
};

/// Gathers a device-fed chunk's share of the frame's sample, drawn on the device (`shaders/sample_gather.wgsl`).
pub(crate) const SAMPLE_GATHER: Kernel = Kernel {
    name: "sample_gather",
    file: shared!("sample_gather.wgsl"),
    needs: Needs::Scene,
    counting: false,
};

#[cfg(test)]
/// Every kernel the crate compiles.
pub(crate) const KERNELS: [&Kernel; 11] = [
    &GJK,
    &GJK_SUBGROUP,
    &GJK_COUNTING,
    &GJK_NULL,
    &PENETRATION_GJK,
    &PENETRATION_EPA,
    &PENETRATION_EPA_SCRATCH,
    &MARK_BODIES,
    &LIST_FAILURES,
    &CHUNK_DISPATCH,
    &SAMPLE_GATHER,
];

impl Kernel {
    /// The shared files this kernel is assembled from, in order.
    pub fn shared_files(&self) -> impl Iterator<Item = &'static SharedFile> {
        let gjk: &'static [SharedFile] = if matches!(self.needs, Needs::Scene) {
            &[]
        } else {
            &GJK_FILES
        };
        let (scan, storage, epa): (_, _, &'static [SharedFile]) = match self.needs {
            Needs::Scene => (None, None, &[]),
            Needs::Gjk(scan) => (Some(scan), None, &[]),
            Needs::Epa(storage) => (Some(&THREAD_SCAN), Some(storage), &EPA_FILES),
        };
        SCENE_FILES
            .iter()
            .chain(gjk)
            .chain(scan)
            .chain(storage)
            .chain(epa)
    }

    /// Whether the kernel uses subgroup operations (wgpu's `SUBGROUP` feature, naga's `SUBGROUP` capability).
    #[cfg(test)]
    pub fn uses_subgroups(&self) -> bool {
        matches!(self.needs, Needs::Gjk(scan) if std::ptr::eq(scan, &SUBGROUP_SCAN))
    }

    /// The complete WGSL source.
    #[cfg(test)]
    pub fn source(&self) -> String {
        self.source_for(constants::Climbing::Compiled)
    }

    /// [`Kernel::source`] with or without the hull climb ([`constants::Climbing`]).
    pub fn source_for(&self, climbing: constants::Climbing) -> String {
        let mut text = constants::wgsl_constants_for(climbing);
        text.push_str(&format!(
            "const COUNTING: u32 = {}u;\n",
            u32::from(self.counting)
        ));
        let files = self.shared_files().map(|f| (f.path, f.text));
        for (path, body) in files.chain([(self.file.path, self.file.text)]) {
            text.push_str(&format!("\n// ---- {path} ----\n"));
            text.push_str(body);
        }
        text
    }
}

#[cfg(test)]
/// The kernel called `name`.
pub(crate) fn kernel(name: &str) -> Option<&'static Kernel> {
    KERNELS.iter().copied().find(|k| k.name == name)
}
