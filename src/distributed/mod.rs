//! Distribution: one search across processes (`orbit check --distributed`
//! under `mpirun`).
//!
//! The search itself is the engine's ([`workers::distributed`]): it needs
//! only a [`Transport`] between the ranks. This module holds what the
//! library and the command line share: [`Distribution`], the handle a
//! checker is given. The transport over MPI is a crate of its own,
//! `orbit-mpi` (`mpi/` here), with the binary that joins MPI jobs: this
//! crate builds without MPI.

use parking_lot::Mutex;
use std::sync::Arc;
pub use workers::distributed::{ChannelTransport, Transport, TransportError};

/// The ranks a checker searches with: a transport to the others, shared
/// by the copies of a check's job (the checker uses it on one thread).
#[derive(Clone)]
pub struct Distribution(Arc<Mutex<Box<dyn Transport + Send>>>);

impl Distribution {
    /// A distribution over `transport`.
    pub fn new(transport: Box<dyn Transport + Send>) -> Self {
        Distribution(Arc::new(Mutex::new(transport)))
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.0.lock().rank()
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.0.lock().ranks()
    }

    /// Runs `f` with the transport.
    pub fn with<R>(&self, f: impl FnOnce(&mut dyn Transport) -> R) -> R {
        let mut transport = self.0.lock();
        f(&mut **transport)
    }
}

impl std::fmt::Debug for Distribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Distribution(rank {} of {})", self.rank(), self.ranks())
    }
}
