//! EPA's work per pair on the GPU: how many expansions each pair that went through the EPA pass made, in the
//! order the pass runs them, for the same SIMT proxy as GJK's steps ([`super::work`]). From a penetration batch
//! that reads the EPA queue back ([`NarrowPhase::count_epa_steps`]); the CPU twin counts the same expansions
//! (`Penetration::iterations`).

use super::work::simt_efficiency;
use super::{GpuError, NarrowPhase};
use crate::gjk::GjkConfig;
use crate::instance::{Instance, Pair};

/// The EPA pass's expansions in one batch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpaSteps {
    /// Per pair, in pair order: its expansions when it went through the EPA pass, `None` when GJK alone
    /// answered it.
    pub per_pair: Vec<Option<u32>>,
    /// The expansions of the pairs that went through the EPA pass, in dispatch order (pass 1's order, binned by
    /// work or not): the order in which a hardware adapter's pass 2 takes them from its queue, up to the
    /// atomic appends' interleaving.
    pub dispatched: Vec<u32>,
}

impl EpaSteps {
    /// [`simt_efficiency`] of the expansions over each 32 consecutive EPA pairs in dispatch order.
    pub fn simt_efficiency(&self) -> f64 {
        simt_efficiency(self.dispatched.iter().copied())
    }

    /// Expansions per pair that went through the EPA pass (0 when none did).
    pub fn mean(&self) -> f64 {
        let total: u64 = self.dispatched.iter().map(|&s| u64::from(s)).sum();
        total as f64 / self.dispatched.len().max(1) as f64
    }
}

impl NarrowPhase {
    /// Sets the instances and runs one penetration batch (untimed use: it reads the EPA queue back) to count the
    /// EPA pass's expansions per pair. The batch answers as [`NarrowPhase::run_penetration`] with the queue kept
    /// in pair order, as on software adapters.
    pub fn count_epa_steps(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<EpaSteps, GpuError> {
        self.set_instances(instances)?;
        self.penetration_parts().2.read_queue(true);
        let counted = self
            .run_penetration_job(pairs, crate::gpu::PenetrationFormat::Full, config)
            .map(|(_, job)| {
                let iterations = job.penetration_iterations(pairs.len());
                (iterations, job.queued.clone().unwrap_or_default())
            });
        self.penetration_parts().2.read_queue(false);
        let (iterations, queued) = counted?;
        let order = self.dispatch_order(pairs);
        let mut steps = EpaSteps {
            per_pair: vec![None; pairs.len()],
            dispatched: Vec::new(),
        };
        for (&pair, &went) in order.iter().zip(&queued) {
            if went {
                let pair = pair as usize;
                steps.per_pair[pair] = Some(iterations[pair]);
                steps.dispatched.push(iterations[pair]);
            }
        }
        Ok(steps)
    }
}
