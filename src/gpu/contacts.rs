//! The narrow phase's penetration entry points: [`NarrowPhase::contacts`] (packed records) and
//! [`NarrowPhase::run_penetration`] (full answers), both running the two-pass [`PenetrationJob`].

use super::layout::{GpuPenetration, GpuResult, RESULT_STRIDE};
use super::narrow_phase::NarrowPhase;
use super::packed::{PackedContact, PenetrationFormat};
use super::penetration::{ContactRecords, GpuPenetrationBatch, PenetrationJob};
use super::runner::{run_batch, BatchSettings, GpuTimings};
use super::GpuError;
use crate::gjk::{GjkConfig, QueryKind};
use crate::instance::{Instance, Pair};
use std::time::Instant;

const CONTACT_STRIDE: u64 = std::mem::size_of::<PackedContact>() as u64;

impl NarrowPhase {
    pub(super) fn run_penetration_job(
        &mut self,
        pairs: &[Pair],
        format: PenetrationFormat,
        config: &GjkConfig,
    ) -> Result<(GpuTimings, &PenetrationJob), GpuError> {
        let mut bins = std::mem::take(&mut self.bins);
        let start = Instant::now();
        let staged = (self.binning() && bins.bin(&self.scene, pairs, false)).then(|| bins.binned());
        let binning_s = start.elapsed().as_secs_f64();
        let binned = staged.is_some();
        let (scene, ring, job) = self.penetration_parts();
        job.begin(format, pairs.len());
        let settings = BatchSettings {
            kind: QueryKind::Distance,
            config,
        };
        let mut timings = run_batch(scene, ring, job, staged.unwrap_or(pairs), settings);
        if let (true, Ok(timings)) = (binned, &mut timings) {
            let start = Instant::now();
            job.restore_order(&mut bins);
            timings.add_binning(binning_s, start.elapsed().as_secs_f64());
        }
        self.bins = bins;
        let timings = timings?;
        let (_, _, job) = self.penetration_parts();
        Ok((timings, job))
    }

    /// Penetration depth, contact normal and contact points for `pairs` of the scene's instances (GJK in
    /// distance mode, then EPA where the cores overlap), as 48-byte records ([`PackedContact`]).
    pub fn contacts(
        &mut self,
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<ContactRecords<'_>, GpuError> {
        let (timings, job) = self.run_penetration_job(pairs, PenetrationFormat::Contact, config)?;
        let words = pairs.len() * (CONTACT_STRIDE / 4) as usize;
        Ok(ContactRecords {
            records: bytemuck::cast_slice(&job.penetration_words[..words]),
            epa_pairs: job.epa_pairs,
            timings,
        })
    }

    /// Sets the instances and answers penetration for every pair, GJK's answer and the penetration answer in
    /// full, blocking until they are back. The GPU twin of `penetration_relative` except that
    /// it never repeats a pair in float64 and has only the first try's EPA bounds: such pairs keep a named
    /// failure status for the CPU to answer.
    pub fn run_penetration(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<GpuPenetrationBatch, GpuError> {
        self.set_instances(instances)?;
        self.penetration_on_resident(pairs, config)
    }

    /// Like [`NarrowPhase::run_penetration`] on the instances already on the device (the latest
    /// [`NarrowPhase::set_instances`], or the poses a pass that moves the bodies on the device wrote there): only
    /// the pairs go up, where setting the instances again would send every one.
    pub fn penetration_on_resident(
        &mut self,
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<GpuPenetrationBatch, GpuError> {
        let (timings, job) = self.run_penetration_job(pairs, PenetrationFormat::Full, config)?;
        let words = pairs.len() * (RESULT_STRIDE / 4) as usize;
        let results: &[GpuResult] = bytemuck::cast_slice(&job.result_words[..words]);
        let penetrations: &[GpuPenetration] = bytemuck::cast_slice(&job.penetration_words[..words]);
        Ok(GpuPenetrationBatch {
            results: results.iter().map(GpuResult::to_result).collect(),
            penetrations: penetrations.iter().map(|p| p.to_penetration()).collect(),
            timings,
            epa_pairs: job.epa_pairs,
            resolved_on_cpu: 0,
        })
    }
}
