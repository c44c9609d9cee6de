//! Checkpoints: the run state right after an event's handlers, to continue a run from.

use super::Engine;
use std::any::Any;

/// The engine's side of a checkpoint: everything of the run state that the rest of a run reads
/// (states, work slots, outputs, the blocks' scratch, pending time events); the recording is not
/// part of it. See [`Engine::checkpoint`].
pub struct EngineCheckpoint {
    t: f64,
    x: Vec<f64>,
    work: Vec<f64>,
    signals: Vec<f64>,
    /// Behind a lock only so that a checkpoint can be shared between threads (a scratch is
    /// `Send`, not `Sync`); it is only ever read, to copy from.
    scratch: std::sync::Mutex<Vec<Box<dyn Any + Send>>>,
    next_time_event: Vec<f64>,
    next_time_event_min: f64,
}

impl EngineCheckpoint {
    /// The time it was taken at, s.
    pub fn time(&self) -> f64 {
        self.t
    }
}

impl<'d> Engine<'d> {
    /// The run state at `t` right after an event's handlers ran (where the run state's `x` is
    /// current), to continue from with [`Engine::restore`]. The blocks' scratch is copied through
    /// [`crate::block::Block::clone_scratch`].
    pub fn checkpoint(&self, t: f64) -> EngineCheckpoint {
        EngineCheckpoint {
            t,
            x: self.run.x.clone(),
            work: self.run.work.clone(),
            signals: self.run.signals.clone(),
            scratch: std::sync::Mutex::new(
                self.blocks
                    .iter()
                    .zip(&self.run.scratch)
                    .map(|(block, s)| block.clone_scratch(&**s))
                    .collect(),
            ),
            next_time_event: self.run.next_time_event.clone(),
            next_time_event_min: self.run.next_time_event_min,
        }
    }

    /// Puts the run state back to `checkpoint` and starts a new recording there: the
    /// counterpart of [`Engine::initialize`] for a run that continues from a checkpoint. Returns
    /// the state vector, or [`crate::sim::RunOptionsError::ForeignCheckpoint`] when the checkpoint was taken on another diagram (its
    /// buffers do not fit this one's; the run state is then untouched).
    pub fn restore(
        &mut self,
        checkpoint: &EngineCheckpoint,
    ) -> Result<Vec<f64>, crate::sim::RunOptionsError> {
        let fits = checkpoint.x.len() == self.run.x.len()
            && checkpoint.work.len() == self.run.work.len()
            && checkpoint.signals.len() == self.run.signals.len()
            && checkpoint.next_time_event.len() == self.run.next_time_event.len();
        if !fits {
            return Err(crate::sim::RunOptionsError::ForeignCheckpoint {
                checkpoint_states: checkpoint.x.len(),
                checkpoint_signals: checkpoint.signals.len(),
                states: self.run.x.len(),
                signals: self.run.signals.len(),
            });
        }
        self.start_run_at(checkpoint.t);
        self.keep_crossing_steps_if_history_free();
        self.run.x.copy_from_slice(&checkpoint.x);
        self.run.work.copy_from_slice(&checkpoint.work);
        self.run.signals.copy_from_slice(&checkpoint.signals);
        // Never poisoned: nothing panics while it is held.
        let saved = checkpoint
            .scratch
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (b, block) in self.blocks.iter().enumerate() {
            self.run.scratch[b] = block.clone_scratch(&*saved[b]);
        }
        self.run
            .next_time_event
            .copy_from_slice(&checkpoint.next_time_event);
        self.run.next_time_event_min = checkpoint.next_time_event_min;
        Ok(self.run.x.clone())
    }
}
