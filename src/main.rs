//! The `orbit` binary (the command line is wired in with the engine and interpreter).

fn main() {}
