//! The model arguments every command that loads a model shares: the file
//! (a B machine or a Murphi program), deferred-set sizes and the integer
//! bounds.

use std::path::PathBuf;

use super::units::parse_set_size;
use crate::b::load::LoadOptions;

/// The model to load and how to size it (flattened into `orbit check`,
/// `orbit por` and `orbit graph`).
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// The model: a B machine (.mch, .ref, .imp) or a Murphi program (.m).
    pub model: PathBuf,
    /// Size of a deferred set, e.g. `--set PID=4` (repeatable), or the value
    /// of a scalar parameter of the checked machine (`MACHINE M(n)`), or of
    /// a Murphi `const`. Without it a deferred set's size comes from a
    /// `scope_X` definition, a `card(X) = n` conjunct in PROPERTIES, or the
    /// default of 2 (as in ProB).
    #[arg(long = "set", value_name = "SET=SIZE", value_parser = parse_set_size)]
    pub set_sizes: Vec<(String, u32)>,
    /// Value of MAXINT, the upper bound of NAT and INT (ProB's default is 3).
    #[arg(long, value_name = "N")]
    pub maxint: Option<i64>,
    /// Value of MININT, the lower bound of INT (ProB's default is -1).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub minint: Option<i64>,
    /// A directory to search for the machines (`.mch`, `.ref`, `.imp`) and
    /// definition files (`.def`) a model names, after the directory of the
    /// file naming them (repeatable).
    #[arg(long = "search-path", value_name = "DIR")]
    pub search_path: Vec<PathBuf>,
    /// Report a called operation whose precondition fails as a model error
    /// (ProB's TRY_FIND_ABORT); by default the precondition is a guard, as
    /// in ProB.
    #[arg(long)]
    pub find_abort: bool,
    /// Enumerate an integer that nothing bounds (`x : NATURAL` with no upper
    /// bound) within MININT..MAXINT, as ProB does, instead of refusing it;
    /// the run warns that larger values are not explored.
    #[arg(long)]
    pub bound_integers: bool,
}

impl ModelArgs {
    /// The loader's options for these arguments, or a usage error when a
    /// set is given two different sizes (`--set X=3 --set X=4`).
    pub fn load_options(&self) -> Result<LoadOptions, String> {
        for (i, (name, size)) in self.set_sizes.iter().enumerate() {
            if let Some((_, other)) = self.set_sizes[..i].iter().find(|(n, _)| n == name)
                && other != size
            {
                return Err(format!(
                    "`--set {name}=...` is given twice, with {other} and {size}: give one size"
                ));
            }
        }
        Ok(LoadOptions {
            set_sizes: self.set_sizes.clone(),
            search_path: self.search_path.clone(),
            find_abort: self.find_abort,
            bound_integers: self.bound_integers,
            maxint: self.maxint,
            minint: self.minint,
            unchecked_invariant: false,
        })
    }
}
