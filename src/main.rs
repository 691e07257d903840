//! The `orbit` binary: see [`orbit::cli`].

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> std::process::ExitCode {
    orbit::cli::main()
}
