//! Batches of frontier states, the unit of work the parallel engines pass
//! between threads (so deques and stealing cost one operation per batch,
//! not per state).

/// Words before the state in a batch record: its reference and depth.
pub(crate) const HEADER: usize = 2;
/// States per batch before it is handed to the scheduler.
pub(crate) const BATCH_STATES: usize = 64;

/// Up to [`BATCH_STATES`] records `[reference, depth, state words...]`;
/// in exact mode the state is left out (the visited set holds it).
pub(crate) struct Batch {
    pub(crate) words: Vec<u64>,
    pub(crate) len: usize,
}

impl Batch {
    /// An empty batch for records of `stride` words.
    pub(crate) fn with_stride(stride: usize) -> Self {
        Batch {
            words: Vec::with_capacity(stride * BATCH_STATES),
            len: 0,
        }
    }

    /// Appends a record.
    #[inline]
    pub(crate) fn push(&mut self, r: u64, depth: u64, state: &[u64]) {
        self.words.push(r);
        self.words.push(depth);
        self.words.extend_from_slice(state);
        self.len += 1;
    }

    /// Whether the batch should be handed over.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.len >= BATCH_STATES
    }

    /// Record `i`: (reference, depth, state).
    #[inline]
    pub(crate) fn record(&self, i: usize, stride: usize) -> (u64, u64, &[u64]) {
        let r = &self.words[i * stride..(i + 1) * stride];
        (r[0], r[1], &r[HEADER..])
    }
}
