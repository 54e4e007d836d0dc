//! A safety net around the arrow-rs and parquet readers. They assert on some damaged files instead of
//! returning an error (mutating tables byte by byte found `column start and length should not be negative`
//! in parquet's metadata, and arrow-ipc's unchecked buffer slices and length products, which the IPC
//! readers here now check first). A panic inside a guarded read becomes an error that names the file, and
//! the command goes on as for any unreadable table; `gpu-gjk`'s panic hook stays quiet for these
//! ([`reading_a_table`]), so stderr shows the error, not a backtrace.

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    static READING: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread is inside a guarded read (for a panic hook: such a panic becomes an error).
pub fn reading_a_table() -> bool {
    READING.with(Cell::get)
}

/// Runs `read`; a panic inside it becomes an error.
pub fn guarded<T>(read: impl FnOnce() -> Result<T, ArrowError>) -> Result<T, ArrowError> {
    let outer = READING.with(|r| r.replace(true));
    let result = catch_unwind(AssertUnwindSafe(read));
    READING.with(|r| r.set(outer));
    result.unwrap_or_else(|payload| {
        Err(ArrowError::ParseError(format!(
            "the reader stopped on this file (is it damaged?): {}",
            panic_message(payload.as_ref())
        )))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// Record batches read under [`guarded`], ending after the first error.
pub struct GuardedBatches<I> {
    inner: I,
    done: bool,
}

impl<I> GuardedBatches<I> {
    pub fn new(inner: I) -> Self {
        Self { inner, done: false }
    }
}

impl<I: Iterator<Item = Result<RecordBatch, ArrowError>>> Iterator for GuardedBatches<I> {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = guarded(|| self.inner.next().transpose()).transpose();
        self.done = !matches!(next, Some(Ok(_)));
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_guarded_read_is_an_error_with_its_message() {
        let result: Result<(), ArrowError> = guarded(|| panic!("offset {} past the end", 9));
        let message = result.unwrap_err().to_string();
        assert!(
            message.contains("is it damaged?): offset 9 past the end"),
            "{message}"
        );
        assert!(!reading_a_table());
        assert_eq!(guarded(|| Ok(5)).unwrap(), 5);
    }

    #[test]
    fn guarded_batches_end_after_a_panicking_batch() {
        let schema = std::sync::Arc::new(arrow_schema::Schema::empty());
        let mut calls = 0;
        let batches = std::iter::from_fn(move || {
            calls += 1;
            match calls {
                1 => Some(Ok(RecordBatch::new_empty(schema.clone()))),
                2 => panic!("a damaged block"),
                _ => Some(Ok(RecordBatch::new_empty(schema.clone()))),
            }
        });
        let read: Vec<_> = GuardedBatches::new(batches).collect();
        assert_eq!(read.len(), 2);
        assert!(read[0].is_ok());
        let message = read[1].as_ref().unwrap_err().to_string();
        assert!(message.contains("a damaged block"), "{message}");
    }
}
