//! The sequential frontier: a double-ended queue of fixed-stride records
//! `[id, depth, state words...]` (no state words in exact mode, where the
//! store holds the states), popped at the front (BFS), the back (DFS)
//! or, for ProB's mixed search, at a pseudo-randomly chosen end.

use std::collections::VecDeque;

use crate::config::SearchOrder;

/// Words before the state in a frontier record.
const HEADER: usize = 2;

/// A queue of states waiting to be expanded.
pub(crate) struct Frontier {
    stride: usize,
    words: VecDeque<u64>,
    order: SearchOrder,
    rng: u64,
}

impl Frontier {
    /// An empty frontier for states of `width` words, popped in `order`.
    pub(crate) fn new(width: usize, order: SearchOrder) -> Self {
        let rng = match order {
            // xorshift needs a non-zero state.
            SearchOrder::Mixed { seed } => seed ^ 0x9e37_79b9_7f4a_7c15 | 1,
            _ => 1,
        };
        Frontier {
            stride: width + HEADER,
            words: VecDeque::new(),
            order,
            rng,
        }
    }

    /// Number of queued states.
    pub(crate) fn len(&self) -> usize {
        self.words.len() / self.stride
    }

    /// Queues state `id` at `depth`.
    pub(crate) fn push(&mut self, id: u64, depth: u64, state: &[u64]) {
        self.words.push_back(id);
        self.words.push_back(depth);
        self.words.extend(state.iter().copied());
    }

    /// Removes the next state into `state`, returning its id and depth.
    pub(crate) fn pop(&mut self, state: &mut Vec<u64>) -> Option<(u64, u64)> {
        if self.words.is_empty() {
            return None;
        }
        let front = match self.order {
            SearchOrder::Bfs => true,
            SearchOrder::Dfs => false,
            SearchOrder::Mixed { .. } => self.next_random() & 1 == 0,
        };
        state.clear();
        let range = if front {
            0..self.stride
        } else {
            self.words.len() - self.stride..self.words.len()
        };
        let mut record = self.words.drain(range);
        let id = record.next()?;
        let depth = record.next()?;
        state.extend(record);
        Some((id, depth))
    }

    /// xorshift64* (Marsaglia 2003, Vigna 2016).
    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(order: SearchOrder) -> Vec<u64> {
        let mut f = Frontier::new(1, order);
        for i in 0..6 {
            f.push(i, 0, &[i * 10]);
        }
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some((id, _)) = f.pop(&mut buf) {
            assert_eq!(buf, vec![id * 10]);
            out.push(id);
        }
        out
    }

    #[test]
    fn orders_pop_from_the_right_end() {
        assert_eq!(drain(SearchOrder::Bfs), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(drain(SearchOrder::Dfs), vec![5, 4, 3, 2, 1, 0]);
        let mixed = drain(SearchOrder::Mixed { seed: 3 });
        assert_eq!(mixed, drain(SearchOrder::Mixed { seed: 3 }));
        let mut sorted = mixed.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5]);
    }
}
