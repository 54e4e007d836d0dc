//! The picked body's pairs on a frame fed on the device ([`Simulation::feeds_on_device`]): the frame's pairs stay
//! in the broad phase's buffer, so the GPU lists the picked body's ([`crate::gpu::body_pairs`]) and one readback
//! of a fixed size brings them with the poses the narrow phase answered, the body's and its partners'. The
//! picked body's panel, the selected pair (`[` `]`) and the inspector then show the GPU's pairs on the GPU's
//! poses. The frame's records of those pairs did not outlive its chunks, so the listed pairs are answered again
//! on the GPU, alone, on the instances still resident there (8 bytes up and 48 down a pair): the panel's GPU
//! column beside the CPU's. The CPU scene stays the reference for everything else.
//!
//! The list is made on every such frame while a body is picked, not only on checked ones: the panel, the
//! partners' outlines and the selected pair follow the moving bodies frame by frame, for two waits,
//! [`BodyPairs::readback_bytes`] and the listed pairs' answers a frame, whatever the scene.

use super::pair_list::{PairsSource, PickedPairs};
use super::{FrameData, FrameStats, Simulation};
use crate::gjk::GjkResult;
use crate::gpu::body_pairs::{BodyPairs, BodyPairsSource, DEFAULT_BODY_PAIR_CAPACITY};
use anyhow::{Context, Result};
use std::sync::Arc;

impl FrameData {
    /// `body`'s candidate pairs, each with the GPU's answer when the frame has it: the GPU's list and its answers
    /// when the frame made one for `body`, else those of `pairs` and `gpu_answers`.
    pub fn pairs_of(&self, body: u32) -> Vec<(Option<GjkResult<f32>>, [u32; 2])> {
        match self.listed(body) {
            Some(listed) => listed
                .pairs
                .iter()
                .enumerate()
                .map(|(k, &pair)| (listed.gpu_answers.get(k).copied(), pair))
                .collect(),
            None => self
                .pairs
                .iter()
                .enumerate()
                .filter(|(_, pair)| pair.contains(&body))
                .map(|(k, &pair)| {
                    (
                        self.gpu_answers.as_ref().and_then(|g| g.get(k)).copied(),
                        pair,
                    )
                })
                .collect(),
        }
    }

    /// Whether `pair` is one of the frame's candidate pairs (the GPU's list says for the listed body's).
    pub fn is_candidate(&self, pair: [u32; 2]) -> bool {
        match pair.iter().find_map(|&body| self.listed(body)) {
            Some(listed) => listed.pairs.contains(&pair),
            None => self.pairs.contains(&pair),
        }
    }

    /// Where [`FrameData::pairs_of`] takes `body`'s pairs from.
    pub fn pairs_source(&self, body: u32) -> PairsSource {
        match self.listed(body) {
            Some(_) => PairsSource::Gpu,
            None => PairsSource::Host,
        }
    }

    fn listed(&self, body: u32) -> Option<&PickedPairs> {
        self.picked_pairs.as_ref().filter(|p| p.body == body)
    }
}

impl Simulation {
    /// Picks `body` (or none): frames fed on the device list its pairs on the GPU from now on, and the latest
    /// frame's are listed now if that frame was fed on the device and has no list for it (what the panel and
    /// the inspector read before the next frame; its bytes and wait count in [`Simulation::last`]).
    pub fn set_picked(&mut self, body: Option<u32>) -> Result<()> {
        self.picked = body;
        let listed = self.data.picked_pairs.as_ref().map(|p| p.body);
        if self.pairs_on_device && body.is_some() && listed != body {
            let mut stats = self.last.clone();
            self.list_picked_pairs(&mut stats)?;
            self.last = stats;
        }
        Ok(())
    }

    /// Lists the picked body's pairs of the frame just fed on the device, into [`FrameData::picked_pairs`], and
    /// puts the GPU's poses of the body and its listed partners into the frame's instances. Nothing when no
    /// body (or one past the scene) is picked, or the pairs or instances are not on the device.
    pub(super) fn list_picked_pairs(&mut self, stats: &mut FrameStats) -> Result<()> {
        self.data.picked_pairs = None;
        let bodies = self.scene.bodies.len();
        let Some(body) = self.picked.filter(|&b| (b as usize) < bodies) else {
            return Ok(());
        };
        let (Some((pairs, count)), Some(instances), Some((device, queue))) = (
            self.broad.device_pairs().map(|d| (d.pairs, d.count)),
            self.gpu.resident_instance_buffer(),
            self.broad.device_queue(),
        ) else {
            return Ok(());
        };
        let scan = self
            .body_pairs
            .get_or_insert_with(|| BodyPairs::new(device, queue, DEFAULT_BODY_PAIR_CAPACITY));
        let source = BodyPairsSource {
            pairs,
            count,
            instances,
            bodies: bodies as u32,
        };
        let found = scan
            .find(source, body)
            .with_context(|| format!("listing body {body}'s pairs on the GPU"))?;
        stats.bytes_down += found.bytes_down;
        stats.submissions += 1;
        stats.gpu_blocking_waits += 1;
        let mut instances = self.data.instances.as_ref().clone();
        let poses = found
            .pairs
            .iter()
            .map(|p| (p.partner(body), p.partner_pose))
            .chain([(body, found.pose)]);
        for (at, pose) in poses {
            if let Some(instance) = instances.get_mut(at as usize) {
                instance.pose = pose;
            }
        }
        self.data.instances = Arc::new(instances);
        let mut listed: Vec<[u32; 2]> = found.pairs.iter().map(|p| p.pair).collect();
        listed.sort_unstable();
        let gpu_answers = self.answer_listed(&listed, stats)?;
        self.data.picked_pairs = Some(PickedPairs {
            body,
            pairs: listed,
            not_listed: found.overflow(),
            gpu_answers,
        });
        Ok(())
    }

    /// The GPU's answers to `pairs` on the instances resident on the device: a batch of its own, after the
    /// frame's (collected first, so its cost counts in this frame's figures as the batch's does).
    fn answer_listed(
        &mut self,
        pairs: &[[u32; 2]],
        stats: &mut FrameStats,
    ) -> Result<Vec<GjkResult<f32>>> {
        if pairs.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(done) = self
            .gpu
            .collect_marked()
            .context("collecting the GPU narrow phase")?
        {
            stats.add_narrow(&done.timings);
        }
        let answered = self
            .gpu
            .full_results(pairs, self.kind, &self.config)
            .context("answering the picked body's pairs on the GPU")?;
        stats.add_narrow(&answered.timings);
        Ok(answered.records.iter().map(|r| r.to_result()).collect())
    }
}
