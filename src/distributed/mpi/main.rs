//! The `orbit-mpi` binary: `orbit` that can join an MPI job
//! (`mpirun -np N orbit-mpi check --distributed MODEL`); every other
//! command is `orbit`'s own.

mod transport;

#[global_allocator]
static GLOBAL: orbit::alloc::Allocator = orbit::alloc::Allocator;

/// Joins the MPI job this process was started in.
fn join_mpi_job() -> Result<(Box<dyn orbit::distributed::Transport + Send>, usize), String> {
    let transport = transport::MpiTransport::init()?;
    let local = transport.local_ranks();
    Ok((Box::new(transport), local))
}

fn main() -> std::process::ExitCode {
    orbit::cli::main_joining(Some(join_mpi_job))
}
