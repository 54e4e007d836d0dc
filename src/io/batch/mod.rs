//! A batch answered on the CPU or the GPU: the threads it runs on ([`Executor`]), the backend it runs on
//! ([`select_backend`]), one pair's answer in world coordinates ([`query_pair`]), a batch of parsed pairs on
//! the CPU ([`answer_pairs`]), a batch of indexed pairs (two indices into one shape list, whichever reader
//! made it) on the GPU ([`answer_indexed_gpu`]) or handed out range by range ([`IndexedAnswers`]), and a JSON
//! Lines batch streamed block by block on the CPU ([`stream_on_cpu`]); contact manifolds of a JSON Lines batch
//! ([`stream_manifolds`], [`stream_manifolds_gpu`]) or of indexed pairs ([`manifolds_indexed`]), on the CPU or
//! the GPU.

mod answer;
mod backend;
mod exec;
pub(crate) mod gpu;
mod indexed;
mod manifold;
mod manifold_gpu;
mod manifold_indexed;
mod parsed;
mod stream_cpu;

pub use answer::{query_pair, PairAnswer};
pub use backend::{select_backend, Backend, Selected, SoftwareAdapters};
pub use exec::{parse_threads, threads_from_count, Executor};
pub use gpu::{answer_indexed_gpu, IndexedPair};
pub(crate) use indexed::query_indexed;
pub use indexed::IndexedAnswers;
pub use manifold::{manifold_of_line, manifold_placed, stream_manifolds};
pub use manifold_gpu::{manifolds_placed_gpu, stream_manifolds_gpu, PlacedPair};
pub use manifold_indexed::manifolds_indexed;
pub use parsed::answer_pairs;
pub use stream_cpu::{stream_on_cpu, Streamed};
