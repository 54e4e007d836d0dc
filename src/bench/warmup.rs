//! The GPU warm-up before timed batches: a hardware GPU idles at a fraction of its clock and leaves it only
//! under sustained work, so untimed batches run until their speed stops improving.

/// After the first warm-up batch, untimed batches of the scene's first pairs (up to this many) run until the
/// GPU's speed has settled: a hardware GPU leaves its idle clocks only under sustained work, and drops back to
/// them within seconds of idling (while the CPU rows run). On an H100 (nvidia-smi sampled every 100 ms), the SM
/// clock sat at 345 MHz until 100 to 400 ms of work had passed, then 1,980 MHz; 1,000,000 distance pairs took
/// 16.4 ms of kernel time after a 1,024-pair warm-up alone and 2.9 ms after a settled one.
pub const GPU_WARMUP_BATCH_PAIRS: usize = 262_144;

/// The warm-up runs at least this long (the H100's clock rose after 100 to 400 ms of work), and ends once no
/// batch has been 5% faster than the fastest before it for [`GPU_WARMUP_SETTLED_SECONDS`], or once one batch
/// alone takes that long (sustained work already, as on a software adapter), or after
/// [`GPU_WARMUP_MAX_SECONDS`].
pub const GPU_WARMUP_SECONDS: f64 = 0.5;
/// How long the batches must go without getting faster (or one batch must take) for the speed to count as
/// settled.
pub const GPU_WARMUP_SETTLED_SECONDS: f64 = 0.25;
/// The longest warm-up, for a GPU whose batches keep getting faster.
pub const GPU_WARMUP_MAX_SECONDS: f64 = 3.0;

/// Decides, batch after batch, when the warm-up is over (times in seconds since the warm-up began).
#[derive(Debug)]
pub struct Settling {
    fastest_s: f64,
    improved_at_s: f64,
}

impl Default for Settling {
    fn default() -> Self {
        Self {
            fastest_s: f64::INFINITY,
            improved_at_s: 0.0,
        }
    }
}

impl Settling {
    /// Records a batch that took `batch_s` and ended `elapsed_s` into the warm-up; true when the warm-up is over.
    pub fn after_batch(&mut self, elapsed_s: f64, batch_s: f64) -> bool {
        if batch_s < self.fastest_s * 0.95 {
            self.improved_at_s = elapsed_s;
        }
        self.fastest_s = self.fastest_s.min(batch_s);
        let settled = elapsed_s - self.improved_at_s >= GPU_WARMUP_SETTLED_SECONDS
            || batch_s >= GPU_WARMUP_SETTLED_SECONDS;
        (elapsed_s >= GPU_WARMUP_SECONDS && settled) || elapsed_s >= GPU_WARMUP_MAX_SECONDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds batches of the given durations back to back; returns how many ran.
    fn batches_until_settled(durations: impl IntoIterator<Item = f64>) -> usize {
        let mut settling = Settling::default();
        let mut elapsed = 0.0;
        for (i, batch_s) in durations.into_iter().enumerate() {
            elapsed += batch_s;
            if settling.after_batch(elapsed, batch_s) {
                return i + 1;
            }
        }
        panic!("the warm-up never ended");
    }

    #[test]
    fn one_long_batch_is_warm_up_enough() {
        // A software adapter: a batch of over a second is sustained work by itself.
        assert_eq!(batches_until_settled([1.2, 1.2, 1.2]), 1);
    }

    #[test]
    fn a_steady_gpu_stops_after_the_least_time() {
        // 10 ms batches that never get faster: 0.5 s is 50 batches.
        assert_eq!(batches_until_settled(std::iter::repeat(0.01)), 50);
    }

    #[test]
    fn a_clock_ramp_is_waited_out() {
        // 3 ms batches for 0.4 s (idle clocks), then 0.75 ms ones: the warm-up goes on until 0.25 s after the
        // speed-up, 0.4 + 0.25 s in all.
        let slow = (0.4_f64 / 0.003).ceil() as usize;
        let durations = std::iter::repeat_n(0.003, slow).chain(std::iter::repeat(0.00075));
        let fast_needed = (0.25_f64 / 0.00075).ceil() as usize;
        let ran = batches_until_settled(durations);
        assert!(
            ran >= slow + fast_needed && ran <= slow + fast_needed + 1,
            "{ran} batches, expected {} to {}",
            slow + fast_needed,
            slow + fast_needed + 1
        );
    }

    #[test]
    fn a_gpu_that_keeps_speeding_up_is_cut_off() {
        // Every 0.2 s the batches get 6% faster: never settled for 0.25 s, so the cap ends the warm-up.
        let mut settling = Settling::default();
        let (mut elapsed, mut batch_s, mut block_started) = (0.0, 0.01, 0.0);
        loop {
            if elapsed - block_started >= 0.2 {
                batch_s *= 0.94;
                block_started = elapsed;
            }
            elapsed += batch_s;
            if settling.after_batch(elapsed, batch_s) {
                break;
            }
            assert!(elapsed < 10.0, "the warm-up never ended");
        }
        assert!(
            (GPU_WARMUP_MAX_SECONDS..GPU_WARMUP_MAX_SECONDS + 0.011).contains(&elapsed),
            "ended at {elapsed} s"
        );
    }
}
