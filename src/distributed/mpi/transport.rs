//! The transport over MPI (Open MPI through rsmpi): non-blocking sends
//! whose buffers live until MPI has sent them, non-blocking probes, and
//! receives that a stopped run gives up on when their sender died
//! half-way.

use mpi::Threading;
use mpi::datatype::Equivalence;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::request::{Request, StaticScope};
use mpi::topology::{Communicator, SimpleCommunicator};
use orbit::distributed::{Transport, TransportError};
use std::time::Instant;
use workers::distributed::past_grace;

/// A send in flight: MPI's request and the buffer it reads, owned here
/// (leaked for MPI's `'static` scope, taken back once sent).
struct InFlight {
    request: Request<'static, [u8], StaticScope>,
    buffer: *mut [u8],
}

/// This process's place in an MPI job, and its sends in flight.
pub struct MpiTransport {
    world: SimpleCommunicator,
    in_flight: Vec<InFlight>,
    rank: usize,
    ranks: usize,
    /// Ranks of the job on this machine.
    local_ranks: usize,
    /// Held only to be dropped last (fields drop in order): finalises MPI.
    _universe: Universe,
}

// SAFETY: MPI is initialised with `Threading::Serialized` (checked in
// `init`): any thread may call it as long as no two do at once, which the
// `&mut self` of every call (and the `Mutex` of `Distribution`) ensures.
// The buffers in flight are owned by the transport.
unsafe impl Send for MpiTransport {}

impl MpiTransport {
    /// Initialises MPI (once per process) and joins the job `mpirun`
    /// started; fails outside one that MPI can join, or if this MPI
    /// cannot take calls from several threads one at a time.
    pub fn init() -> Result<Self, String> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or("MPI is already initialised in this process")?;
        if threading < Threading::Serialized {
            return Err(format!(
                "this MPI library offers threading level {threading:?}; orbit needs Serialized"
            ));
        }
        let world = universe.world();
        let local_ranks = world.split_shared(world.rank()).size() as usize;
        Ok(MpiTransport {
            rank: world.rank() as usize,
            ranks: world.size() as usize,
            local_ranks,
            world,
            in_flight: Vec::new(),
            _universe: universe,
        })
    }

    /// Ranks of the job on this machine (they share its cores).
    pub fn local_ranks(&self) -> usize {
        self.local_ranks
    }

    /// Takes back the buffers of the sends MPI has completed.
    fn reap(&mut self) {
        let mut k = 0;
        while k < self.in_flight.len() {
            let flight = self.in_flight.swap_remove(k);
            match flight.request.test() {
                Ok(_) => {
                    // SAFETY: the buffer was leaked by `send` for this
                    // request alone, which has completed.
                    drop(unsafe { Box::from_raw(flight.buffer) });
                }
                Err(request) => {
                    self.in_flight.push(InFlight {
                        request,
                        buffer: flight.buffer,
                    });
                    let last = self.in_flight.len() - 1;
                    self.in_flight.swap(k, last);
                    k += 1;
                }
            }
        }
    }
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn send(&mut self, to: usize, bytes: Vec<u8>) -> Result<(), TransportError> {
        let buffer: &'static mut [u8] = Box::leak(bytes.into_boxed_slice());
        let raw: *mut [u8] = buffer;
        // SAFETY: `raw` stays valid until the request completes (`reap`).
        let shared: &'static [u8] = unsafe { &*raw };
        let request = self
            .world
            .process_at_rank(to as i32)
            .immediate_send(StaticScope, shared);
        self.in_flight.push(InFlight {
            request,
            buffer: raw,
        });
        if self.in_flight.len() > 64 {
            self.reap();
        }
        Ok(())
    }

    fn try_receive(&mut self) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
        self.reap();
        let Some((message, status)) = self.world.any_process().immediate_matched_probe() else {
            return Ok(None);
        };
        let from = status.source_rank() as usize;
        let length = status.count(u8::equivalent_datatype()) as usize;
        // A large message's body follows its match (Open MPI's rendezvous):
        // a sender killed in between never sends it, so the receive runs
        // in the background and is given up once the run is stopped and
        // the grace period has passed, like a silent peer.
        let buffer: *mut [u8] = Box::leak(vec![0u8; length].into_boxed_slice());
        // SAFETY: the buffer is leaked until the request completes (then
        // taken back below) or is given up (then it stays leaked).
        let target: &'static mut [u8] = unsafe { &mut *buffer };
        let mut request = message.immediate_matched_receive_into(StaticScope, target);
        let mut stopped_since: Option<Instant> = None;
        loop {
            match request.test() {
                Ok(_) => {
                    // SAFETY: the request that wrote the buffer completed.
                    let bytes = unsafe { Box::from_raw(buffer) }.into_vec();
                    return Ok(Some((from, bytes)));
                }
                Err(pending) => request = pending,
            }
            if past_grace(&mut stopped_since).is_some() {
                // Dropping a pending request aborts the process.
                std::mem::forget(request);
                return Err(TransportError(format!(
                    "rank {from} stopped sending in the middle of a message"
                )));
            }
            std::thread::yield_now();
        }
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        while !self.in_flight.is_empty() {
            self.reap();
            // Progress on messages sent to this rank too.
            std::thread::yield_now();
        }
        Ok(())
    }
}

impl Drop for MpiTransport {
    fn drop(&mut self) {
        // A request dropped before it completes aborts the process
        // (rsmpi's rule): wait for the sends, which a live job completes.
        let _ = self.flush();
    }
}
