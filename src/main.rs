//! The `orbit` binary: see [`orbit::cli`].

#[global_allocator]
static GLOBAL: orbit::alloc::Allocator = orbit::alloc::Allocator;

fn main() -> std::process::ExitCode {
    orbit::cli::main()
}
