//! Partial order reduction as a layer over the model interface (Dobrikov
//! and Leuschel, "Optimising the ProB Model Checker for B using Partial
//! Order Reduction", §4), for any front end that says how its transition
//! groups interact ([`Independence`](crate::model::Independence)):
//!
//! * [`ample`]: the choice of an ample set per state (A1-A3, Algorithm 3);
//! * [`layer`]: [`PorLayer`], which expands each state through an ample
//!   set; the cycle condition A4 is the engine's proviso (`workers`' `por`
//!   module). Its docs argue why it stays sound under symmetry.
//!
//! The static analysis that computes the relations (§3) belongs to each
//! front end (B's decides pairs of guards by enumeration); any front end gets relations
//! from its read/write matrix
//! ([`Relations::from_access`](crate::model::Relations::from_access)).

pub mod ample;
pub mod layer;

pub use layer::{PorLayer, PorScratch};
pub mod analysis;

pub use analysis::PorAnalysis;
