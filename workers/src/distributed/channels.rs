//! Ranks as threads of one process: a [`Transport`] over channels, for
//! tests and for trying the distributed search without MPI.

use super::{Transport, TransportError};
use crossbeam::channel::{Receiver, Sender, TryRecvError, unbounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One rank's end of a group of channels (see [`ChannelTransport::group`]).
pub struct ChannelTransport {
    rank: usize,
    peers: Vec<Sender<(usize, Vec<u8>)>>,
    inbox: Receiver<(usize, Vec<u8>)>,
    /// Messages sent and bytes sent, for tests.
    sent: (u64, u64),
    /// Per rank: whether its thread panicked while holding its transport
    /// (a failed rank, which will never answer).
    failed: Arc<[AtomicBool]>,
}

impl ChannelTransport {
    /// `ranks` connected transports, rank `k` at index `k`: give each to
    /// the thread that runs that rank.
    pub fn group(ranks: usize) -> Vec<ChannelTransport> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..ranks).map(|_| unbounded()).unzip();
        let failed: Arc<[AtomicBool]> = (0..ranks).map(|_| AtomicBool::new(false)).collect();
        receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| ChannelTransport {
                rank,
                peers: senders.clone(),
                inbox,
                sent: (0, 0),
                failed: failed.clone(),
            })
            .collect()
    }

    /// Messages and bytes this rank has sent.
    pub fn sent(&self) -> (u64, u64) {
        self.sent
    }
}

impl Transport for ChannelTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.peers.len()
    }

    fn send(&mut self, to: usize, bytes: Vec<u8>) -> Result<(), TransportError> {
        self.sent.0 += 1;
        self.sent.1 += bytes.len() as u64;
        // A rank whose thread has ended normally has every summary and
        // reads nothing more: what is sent to it is dropped, as an MPI
        // rank past its loop leaves it unread (it used to fail the sender
        // when a time limit ended the ranks a moment apart). One that
        // failed is reported by `try_receive`.
        if self.peers[to].send((self.rank, bytes)).is_err()
            && self.failed[to].load(Ordering::Acquire)
        {
            return Err(TransportError(format!("rank {to} failed")));
        }
        Ok(())
    }

    fn try_receive(&mut self) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
        match self.inbox.try_recv() {
            Ok(message) => Ok(Some(message)),
            Err(TryRecvError::Empty) => {
                match self.failed.iter().position(|f| f.load(Ordering::Acquire)) {
                    Some(rank) => Err(TransportError(format!("rank {rank} failed"))),
                    None => Ok(None),
                }
            }
            Err(TryRecvError::Disconnected) => Err(TransportError("every rank has ended".into())),
        }
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        Ok(())
    }
}

impl Drop for ChannelTransport {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.failed[self.rank].store(true, Ordering::Release);
        }
    }
}
