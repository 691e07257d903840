//! The engine's integration tests, in one test binary (one link instead of
//! one per file): engines against reference searches, flooding, the POR
//! hook, random graphs and stress runs of the visited set.

mod common;

mod distributed;
mod engines;
mod flood;
mod por_hook;
mod random_graphs;
mod stress;
