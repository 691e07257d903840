//! The `orbit` binary: see [`orbit::cli`].

#[global_allocator]
static GLOBAL: orbit::alloc::Allocator = orbit::alloc::Allocator;

fn main() -> std::process::ExitCode {
    orbit::alloc::disable_transparent_huge_pages();
    orbit::alloc::purge_freed_memory_at_once();
    orbit::cli::main()
}
