//! Frames per second of wall time, for the HUD: the frames drawn in the last second divided by the time
//! they took. (A running mean of `1 / dt` is not that: one 1 ms frame next to a 99 ms one reads as 505
//! FPS when two frames took 100 ms.)

use std::collections::VecDeque;

/// Seconds of history the rate is measured over.
const WINDOW_S: f64 = 1.0;

/// Frame times (seconds since any fixed start), newest last, covering about [`WINDOW_S`].
#[derive(Debug, Default)]
pub struct FpsMeter {
    times: VecDeque<f64>,
}

impl FpsMeter {
    /// Records that a frame was presented at `time_s`.
    pub fn frame(&mut self, time_s: f64) {
        self.times.push_back(time_s);
        // Keep one frame older than the window so the span always covers it.
        while self.times.len() > 2 && time_s - self.times[1] >= WINDOW_S {
            self.times.pop_front();
        }
    }

    /// Frames per second of wall time over the window; 0 before two frames.
    pub fn fps(&self) -> f64 {
        match (self.times.front(), self.times.back()) {
            (Some(&first), Some(&last)) if last > first => {
                (self.times.len() - 1) as f64 / (last - first)
            }
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uneven_frames_count_wall_time_not_the_mean_of_their_rates() {
        // Alternating 1 ms and 99 ms frames: 20 frames per second of wall time.
        let mut meter = FpsMeter::default();
        let mut t = 0.0;
        let mut running_mean_of_rates = 0.0;
        for i in 0..400 {
            let dt = if i % 2 == 0 { 0.001 } else { 0.099 };
            t += dt;
            meter.frame(t);
            running_mean_of_rates = 0.9 * running_mean_of_rates + 0.1 / dt;
        }
        assert!((meter.fps() - 20.0).abs() < 0.5, "{}", meter.fps());
        assert!((1e3 / meter.fps() - 50.0).abs() < 1.5);
        // What the HUD used to show for the same frames.
        assert!(running_mean_of_rates > 300.0, "{running_mean_of_rates}");
    }

    #[test]
    fn steady_frames_and_the_start() {
        let mut meter = FpsMeter::default();
        assert_eq!(meter.fps(), 0.0);
        meter.frame(5.0);
        assert_eq!(meter.fps(), 0.0);
        for i in 1..=300 {
            meter.frame(5.0 + f64::from(i) / 60.0);
        }
        assert!((meter.fps() - 60.0).abs() < 1e-6, "{}", meter.fps());
        // A stall shows at once rather than fading in.
        meter.frame(5.0 + 300.0 / 60.0 + 2.0);
        assert!(meter.fps() < 2.0, "{}", meter.fps());
    }
}
