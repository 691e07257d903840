//! The messages between ranks and their bytes: little-endian integers,
//! strings as a length and UTF-8, a kind byte first.

use crate::check::Finding;
use crate::report::StopReason;
use crate::store::NO_PARENT;
use crate::system::{ModelError, Violation, ViolationKind};
use crate::trace::StepKey;

/// A batch of states of depth `level + 1`, found expanding level `level`.
pub(crate) const STATES: u8 = 1;
/// The sender has sent every batch of a level.
pub(crate) const END: u8 = 2;
/// The sender's figures after a level.
pub(crate) const SUMMARY: u8 = 3;
/// Counterexample: the receiver holds the next link of the chain.
pub(crate) const NEXT: u8 = 4;
/// Counterexample: one link, sent to rank 0.
pub(crate) const STEP: u8 = 5;
/// Counterexample: rank 0 has the whole chain.
pub(crate) const CHAIN_DONE: u8 = 6;

/// Counterexample or end: the sender stops (a finding, a limit).
pub(crate) const STOP: u8 = 7;
/// Any order: Safra's token (the count of batches in flight, its colour).
pub(crate) const TOKEN: u8 = 8;
/// Any order: rank 0 has detected termination.
pub(crate) const TERMINATE: u8 = 9;
/// Any order: a rank's figures so far, for rank 0's progress lines.
pub(crate) const PROGRESS: u8 = 10;

/// The level of batches, ends and summaries of the any-order search:
/// its batches give each state's depth.
pub(crate) const ANY_ORDER: u64 = u64::MAX;

/// Bytes of a batch header: kind, level, count.
pub(crate) const BATCH_HEADER: usize = 1 + 8 + 4;
/// Bytes of a parent reference in a batch.
pub(crate) const PARENT_BYTES: usize = 5;
/// A batch is sent once it holds this many bytes.
pub(crate) const BATCH_BYTES: usize = 1 << 16;

/// A malformed message: a bug, or a rank of another build.
#[derive(Debug)]
pub(crate) struct Malformed;

/// Appends values to a message.
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    /// A message of `kind`.
    pub(crate) fn new(kind: u8) -> Self {
        Writer(vec![kind])
    }

    pub(crate) fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }

    pub(crate) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub(crate) fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }

    pub(crate) fn stop(&mut self, reason: Option<StopReason>) -> &mut Self {
        self.u8(reason.map_or(0, stop_code))
    }

    pub(crate) fn key(&mut self, key: &StepKey) -> &mut Self {
        match key {
            StepKey::Words(words) => {
                self.u8(0).u64(words.len() as u64);
                for &w in words.iter() {
                    self.u64(w);
                }
            }
            StepKey::Fingerprint(fp) => {
                self.u8(1).u64(*fp);
            }
        }
        self
    }

    pub(crate) fn finding(&mut self, finding: &Finding) -> &mut Self {
        match finding {
            Finding::Violation(v) => {
                self.u8(0).u8(violation_code(v.kind)).str(&v.message);
            }
            Finding::Deadlock => {
                self.u8(1);
            }
            Finding::Goal => {
                self.u8(2);
            }
            Finding::ModelError(e) => {
                self.u8(3)
                    .str(&e.message)
                    .stop(e.stopped)
                    .u8(e.refused as u8);
            }
        }
        self
    }
}

/// Reads values from a message.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader after the kind byte.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 1 }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Malformed> {
        let end = self.at.checked_add(n).ok_or(Malformed)?;
        let slice = self.bytes.get(self.at..end).ok_or(Malformed)?;
        self.at = end;
        Ok(slice)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Malformed> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Malformed> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().map_err(|_| Malformed)?,
        ))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, Malformed> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().map_err(|_| Malformed)?,
        ))
    }

    pub(crate) fn str(&mut self) -> Result<String, Malformed> {
        let len = usize::try_from(self.u64()?).map_err(|_| Malformed)?;
        String::from_utf8(self.take(len)?.to_vec()).map_err(|_| Malformed)
    }

    pub(crate) fn stop(&mut self) -> Result<Option<StopReason>, Malformed> {
        match self.u8()? {
            0 => Ok(None),
            c => stop_reason(c).map(Some),
        }
    }

    pub(crate) fn key(&mut self) -> Result<StepKey, Malformed> {
        match self.u8()? {
            0 => {
                let len = usize::try_from(self.u64()?).map_err(|_| Malformed)?;
                let words = (0..len)
                    .map(|_| self.u64())
                    .collect::<Result<Vec<u64>, _>>()?;
                Ok(StepKey::Words(words.into()))
            }
            1 => Ok(StepKey::Fingerprint(self.u64()?)),
            _ => Err(Malformed),
        }
    }

    pub(crate) fn finding(&mut self) -> Result<Finding, Malformed> {
        Ok(match self.u8()? {
            0 => {
                let kind = violation_kind(self.u8()?)?;
                Finding::Violation(Violation {
                    kind,
                    message: self.str()?,
                })
            }
            1 => Finding::Deadlock,
            2 => Finding::Goal,
            3 => Finding::ModelError(ModelError {
                message: self.str()?,
                stopped: self.stop()?,
                refused: self.u8()? != 0,
            }),
            _ => return Err(Malformed),
        })
    }

    /// Whether every byte was read.
    pub(crate) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Writes a parent reference in [`PARENT_BYTES`] (all ones: none).
#[inline]
pub(crate) fn put_parent(out: &mut Vec<u8>, parent: u64) {
    let stored = if parent == NO_PARENT {
        (1u64 << (8 * PARENT_BYTES)) - 1
    } else {
        parent
    };
    out.extend_from_slice(&stored.to_le_bytes()[..PARENT_BYTES]);
}

/// Reads a parent reference written by [`put_parent`].
#[inline]
pub(crate) fn get_parent(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word[..PARENT_BYTES].copy_from_slice(&bytes[..PARENT_BYTES]);
    match u64::from_le_bytes(word) {
        v if v == (1u64 << (8 * PARENT_BYTES)) - 1 => NO_PARENT,
        v => v,
    }
}

const STOPS: [StopReason; 8] = [
    StopReason::MaxStates,
    StopReason::TimeLimit,
    StopReason::MemoryLimit,
    StopReason::Interrupted,
    StopReason::WorkerFailed,
    StopReason::StoreFull,
    StopReason::LoopLimit,
    StopReason::CallDepth,
];

fn stop_code(reason: StopReason) -> u8 {
    STOPS
        .iter()
        .position(|r| *r == reason)
        .map_or(0, |k| k as u8 + 1)
}

fn stop_reason(code: u8) -> Result<StopReason, Malformed> {
    STOPS.get(code as usize - 1).copied().ok_or(Malformed)
}

const VIOLATIONS: [ViolationKind; 4] = [
    ViolationKind::Invariant,
    ViolationKind::Assertion,
    ViolationKind::Liveness,
    ViolationKind::Ltl,
];

fn violation_code(kind: ViolationKind) -> u8 {
    VIOLATIONS
        .iter()
        .position(|k| *k == kind)
        .expect("every kind is listed") as u8
}

fn violation_kind(code: u8) -> Result<ViolationKind, Malformed> {
    VIOLATIONS.get(code as usize).copied().ok_or(Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_keys_and_parents_round_trip() {
        let findings = [
            Finding::Violation(Violation {
                kind: ViolationKind::Assertion,
                message: "x < 3 (m.mch:4:7)".into(),
            }),
            Finding::Deadlock,
            Finding::Goal,
            Finding::ModelError(ModelError::stopped(StopReason::LoopLimit)),
            Finding::ModelError(ModelError::refused("no")),
        ];
        for finding in &findings {
            let mut w = Writer::new(SUMMARY);
            w.finding(finding)
                .key(&StepKey::Words(vec![1, u64::MAX].into()));
            w.key(&StepKey::Fingerprint(7))
                .stop(Some(StopReason::CallDepth));
            let mut r = Reader::new(&w.0);
            assert_eq!(&r.finding().unwrap(), finding);
            assert_eq!(r.key().unwrap(), StepKey::Words(vec![1, u64::MAX].into()));
            assert_eq!(r.key().unwrap(), StepKey::Fingerprint(7));
            assert_eq!(r.stop().unwrap(), Some(StopReason::CallDepth));
            assert!(r.done());
            assert!(r.u8().is_err(), "reading past the end is refused");
        }
        for parent in [0, 1, (1 << 40) - 2, NO_PARENT] {
            let mut out = Vec::new();
            put_parent(&mut out, parent);
            assert_eq!(out.len(), PARENT_BYTES);
            assert_eq!(get_parent(&out), parent);
        }
    }
}
