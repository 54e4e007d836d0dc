//! `gpu_gjk._native`: the Rust half of the `gpu_gjk` Python module. It takes the columnar batch as NumPy
//! views (the Python half, `gpu_gjk/__init__.py`, gets them from Arrow tables or dicts of arrays, without
//! copies where the layout allows), turns each pair row into the command line's pair (two shape indices and
//! two world poses) with its checks, and answers them with `gpu_gjk::io`'s `IndexedAnswers`, as the command
//! line does (CPU threads, or the GPU with its failures answered again on the CPU), a block of rows per
//! thread straight into the answer arrays. So the answers and the errors are `gpu-gjk query`'s.

mod answers;
mod columns;
mod manifolds;

use answers::Answers;
use columns::{PairColumns, Pairs, ShapeColumns, Shapes};
use gpu_gjk::gpu::manifold::GpuManifolds;
use gpu_gjk::io::batch::{
    manifolds_indexed, parse_threads, select_backend, threads_from_count, Backend, Executor,
    IndexedAnswers, IndexedPair, Selected, SoftwareAdapters,
};
use gpu_gjk::query::advanced::AnswerKind;
use gpu_gjk::CentredPose;
use manifolds::Manifolds;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// `kind=`, as the command line's `--kind`.
fn answer_kind(kind: &str) -> PyResult<AnswerKind> {
    match kind {
        "penetration" => Ok(AnswerKind::Penetration),
        "distance" => Ok(AnswerKind::Distance),
        "intersection" => Ok(AnswerKind::Intersection),
        other => Err(PyValueError::new_err(format!(
            "kind must be 'penetration', 'distance' or 'intersection', got {other:?}"
        ))),
    }
}

/// `backend=`, as the command line's `--backend`.
fn backend(name: &str) -> PyResult<Backend> {
    Backend::from_name(name).ok_or_else(|| {
        let names: Vec<String> = Backend::ALL
            .iter()
            .map(|(_, name)| format!("'{name}'"))
            .collect();
        PyValueError::new_err(format!(
            "backend must be one of {}, got {name:?}",
            names.join(", ")
        ))
    })
}

/// A GPU device is slow to open (a second on a software adapter): one per backend name, kept for the
/// process, so that a worker answering partition after partition opens it once.
static DEVICES: Mutex<Vec<(Backend, Arc<Selected>)>> = Mutex::new(Vec::new());

fn device(backend: Backend) -> PyResult<Arc<Selected>> {
    let mut devices = DEVICES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, selected)) = devices.iter().find(|(b, _)| *b == backend) {
        return Ok(selected.clone());
    }
    let selected = Arc::new(
        select_backend(backend, SoftwareAdapters::SkipInAuto)
            .map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))?,
    );
    devices.push((backend, selected.clone()));
    Ok(selected)
}

/// `kind="manifold"`'s kernel is compiled once per backend, like the device it runs on.
static MANIFOLD_KERNELS: Mutex<Vec<(Backend, Arc<GpuManifolds>)>> = Mutex::new(Vec::new());

/// The GPU manifold kernel `backend` answers `kind="manifold"` with; none on the CPU. `auto` stays on the CPU,
/// as the command line's `--kind manifold` does: on software adapters the GPU route measured slower than the
/// CPU's threads, and no hardware GPU has timed it.
fn manifold_kernel(backend: Backend) -> PyResult<Option<Arc<GpuManifolds>>> {
    if backend == Backend::Auto {
        return Ok(None);
    }
    let selected = device(backend)?;
    let Some(ctx) = selected.gpu() else {
        return Ok(None);
    };
    let mut kernels = MANIFOLD_KERNELS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, kernel)) = kernels.iter().find(|(b, _)| *b == backend) {
        return Ok(Some(kernel.clone()));
    }
    let kernel = Arc::new(GpuManifolds::new(&ctx.device, &ctx.queue));
    kernels.push((backend, kernel.clone()));
    Ok(Some(kernel))
}

/// What a failed row holds until it is dropped from the pairs.
const PLACEHOLDER: IndexedPair = IndexedPair {
    a: 0,
    b: 0,
    a_pose: CentredPose::IDENTITY,
    b_pose: CentredPose::IDENTITY,
};

/// Every pair row read into its pair (two shape indices, two world poses), on `exec`'s threads, and the failed
/// rows' messages by row, ascending (dropped from the pairs).
fn read_rows(
    pairs: &Pairs,
    shapes: &mut Shapes,
    first_row: usize,
    exec: &Executor,
) -> (Vec<IndexedPair>, Vec<(usize, String)>) {
    pairs.prepare_shapes(shapes);
    let shapes = &*shapes;
    // Each row read straight into its pair, a failed row's message set aside (rare): with no failed
    // row the pairs are answered where they were read, without another pass over a million of them.
    let failed = Mutex::new(Vec::new());
    let mut valid: Vec<IndexedPair> = exec.map_range(pairs.len(), |k| {
        pairs.pair(k, first_row, shapes).unwrap_or_else(|message| {
            failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((k, message));
            PLACEHOLDER
        })
    });
    let mut errors = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    if !errors.is_empty() {
        errors.sort_unstable_by_key(|(k, _)| *k);
        let mut next = errors.iter().map(|(k, _)| *k).peekable();
        let mut row = 0;
        valid.retain(|_| {
            let keep = next.next_if_eq(&row).is_none();
            row += 1;
            keep
        });
    }
    (valid, errors)
}

/// Answers every pair row of the columnar batch; see `gpu_gjk.query` for the arguments and the result.
#[pyfunction]
#[pyo3(signature = (shapes, pairs, kind, backend_name, threads, first_row=0))]
fn query_columns<'py>(
    py: Python<'py>,
    shapes: ShapeColumns<'py>,
    pairs: PairColumns<'py>,
    kind: &str,
    backend_name: &str,
    threads: usize,
    first_row: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = answer_kind(kind)?;
    let backend = backend(backend_name)?;
    let threads = parse_threads(&threads.to_string())
        .map_err(|e| PyValueError::new_err(format!("threads: {e}")))?;
    let exec = Executor::new(threads_from_count(threads))
        .map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))?;
    let selected = device(backend)?;

    let mut shapes = Shapes::new(&shapes)?;
    let pairs = Pairs::new(&pairs)?;
    // Everything below but the dict reads plain memory: other Python threads (a Dask worker's) run meanwhile.
    let (answers, timings) = py
        .detach(|| {
            let start = Instant::now();
            let (valid, errors) = read_rows(&pairs, &mut shapes, first_row, &exec);
            let read_s = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let answers = IndexedAnswers::new(shapes.list(), &valid, kind, selected.gpu(), &exec)
                .map_err(|e| format!("{e:#}"))?;
            let columns = Answers::new(pairs.len(), errors, &answers, &exec);
            let gpu = answers.gpu_timings().copied().unwrap_or_default();
            let timings = [
                ("read_rows_s", read_s),
                ("answer_s", start.elapsed().as_secs_f64()),
                ("gpu_batch_s", gpu.total_s),
                ("gpu_upload_s", gpu.upload_s),
                ("gpu_wait_s", gpu.compute_s),
                ("gpu_kernel_s", gpu.kernel_s.unwrap_or(0.0)),
                ("gpu_readback_s", gpu.readback_s),
            ];
            Ok::<_, String>((columns, timings))
        })
        .map_err(PyRuntimeError::new_err)?;
    let dict = answers.into_dict(py)?;
    dict.set_item(
        "timings",
        PyDict::from_sequence(&timings.into_pyobject(py)?)?,
    )?;
    Ok(dict)
}

/// `kind="manifold"`: every pair row's contact manifold, as `gpu-gjk query --kind manifold` finds it (on the
/// GPU for a GPU backend, within the GPU manifolds' band of the CPU's); see `gpu_gjk.query` for the result.
#[pyfunction]
#[pyo3(signature = (shapes, pairs, backend_name, threads, first_row=0))]
fn manifold_columns<'py>(
    py: Python<'py>,
    shapes: ShapeColumns<'py>,
    pairs: PairColumns<'py>,
    backend_name: &str,
    threads: usize,
    first_row: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let backend = backend(backend_name)?;
    let threads = parse_threads(&threads.to_string())
        .map_err(|e| PyValueError::new_err(format!("threads: {e}")))?;
    let exec = Executor::new(threads_from_count(threads))
        .map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))?;
    let kernel = manifold_kernel(backend)?;
    let mut shapes = Shapes::new(&shapes)?;
    let pairs = Pairs::new(&pairs)?;
    let (columns, timings) = py
        .detach(|| {
            let start = Instant::now();
            let (valid, errors) = read_rows(&pairs, &mut shapes, first_row, &exec);
            let read_s = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let valid: Vec<&IndexedPair> = valid.iter().collect();
            let found = manifolds_indexed(shapes.list(), &valid, &exec, kernel.as_deref())
                .map_err(|e| format!("{e:#}"))?;
            // The GPU run as a whole (its host penetration queries included): `GpuManifolds` does not
            // time its parts.
            let gpu_s = if kernel.is_some() {
                start.elapsed().as_secs_f64()
            } else {
                0.0
            };
            let columns = Manifolds::new(pairs.len(), errors, &found);
            let timings = [
                ("read_rows_s", read_s),
                ("answer_s", start.elapsed().as_secs_f64()),
                ("gpu_batch_s", gpu_s),
                ("gpu_upload_s", 0.0),
                ("gpu_wait_s", 0.0),
                ("gpu_kernel_s", 0.0),
                ("gpu_readback_s", 0.0),
            ];
            Ok::<_, String>((columns, timings))
        })
        .map_err(PyRuntimeError::new_err)?;
    let dict = columns.into_dict(py)?;
    dict.set_item(
        "timings",
        PyDict::from_sequence(&timings.into_pyobject(py)?)?,
    )?;
    Ok(dict)
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(query_columns, m)?)?;
    m.add_function(wrap_pyfunction!(manifold_columns, m)?)?;
    Ok(())
}
