//! The searches, one module each, all generic over [`Game`].
//!
//! | name | module | kind |
//! |---|---|---|
//! | `minimax` | [`minimax`] | depth-first, every leaf |
//! | `alphabeta` | [`alphabeta`] | depth-first, fail-soft |
//! | `negascout` | [`negascout`] | depth-first, null-window tests |
//! | `sss` | [`sss`] | best-first, OPEN list of upper bounds |
//! | `dual` | [`dual`] | best-first, OPEN list of lower bounds |
//! | `recsss` | [`recsss`] | recursive SSS\*, OPEN arrays |
//! | `recdual` | [`recdual`] | recursive Dual\*, OPEN arrays |
//! | `sss2` | [`sss2`] | recursive SSS\*, one max solution tree |
//! | `gsearch` | [`gsearch`] | Ibaraki's bounds on a partial tree, a rule picks the tip |
//! | `rsearch` | [`rsearch`] | GSEARCH in bounded memory, depth-first beyond it |
//! | `mt-sss` | [`mt_sss`] | null-window passes from +inf, table |
//! | `mt-dual` | [`mt_dual`] | null-window passes from -inf, table |
//! | `mtdf` | [`mtdf`] | null-window passes from a guess, table |
//! | `mtd-bi` | [`mtd_bi`] | null-window passes bisecting the bounds, table |
//! | `bns` | [`bns`] | best move by separation tests, table |
//!
//! [`iterative`](crate::drivers::iterative) deepens any depth-first one of them, and the
//! other [drivers](crate::drivers) put them on threads; [`Search`](crate::Search) is the way in. What each one is and
//! needs (family, order, table, answer, parallel form) is data, one row per
//! algorithm in [`capabilities`], which every predicate reads.

pub mod alphabeta;
pub(crate) mod best_first;
pub mod bns;
pub mod capabilities;
pub(crate) mod context;
pub mod dual;
pub mod gsearch;
mod kid_bounds;
pub mod minimax;
mod mt;
pub mod mt_dual;
pub mod mt_sss;
pub mod mtd_bi;
pub mod mtdf;
pub mod negascout;
mod open_queue;
mod polarity;
pub mod recdual;
pub mod recsss;
mod recursive;
pub mod rsearch;
pub mod sss;
pub mod sss2;

pub use capabilities::Capabilities;
use capabilities::{Answer, Order, ParallelForm, TableUse};

use crate::game::Game;
use crate::observe::Observer;
pub use crate::options::Parallel;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::Table;
use crate::value::Value;

/// Every search of the crate, by name: the registry the CLI and the
/// experiments draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// [`minimax`]
    Minimax,
    /// [`alphabeta`]
    AlphaBeta,
    /// [`negascout`]
    NegaScout,
    /// [`sss`]
    Sss,
    /// [`dual`]
    Dual,
    /// [`recsss`]
    RecSss,
    /// [`recdual`]
    RecDual,
    /// [`sss2`]
    Sss2,
    /// [`gsearch`]
    Gsearch,
    /// [`rsearch`]
    Rsearch,
    /// [`mt_sss`]
    MtSss,
    /// [`mt_dual`]
    MtDual,
    /// [`mtdf`]
    Mtdf,
    /// [`mtd_bi`]
    MtdBi,
    /// [`bns`]
    Bns,
}

impl Algorithm {
    /// Every algorithm, baselines first.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::RecSss,
        Algorithm::RecDual,
        Algorithm::Sss2,
        Algorithm::Gsearch,
        Algorithm::Rsearch,
        Algorithm::MtSss,
        Algorithm::MtDual,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
        Algorithm::Bns,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        self.capabilities().name
    }

    /// What it is and needs: its row of [`CAPABILITIES`](capabilities::CAPABILITIES).
    pub fn capabilities(self) -> &'static Capabilities {
        &capabilities::CAPABILITIES[self as usize]
    }

    /// Whether it has a parallel form here: the depth-first algorithms but
    /// minimax, through a shared table ([`lazy_smp`](crate::drivers::lazy_smp), [`abdada`](crate::drivers::abdada)), and
    /// SSS\* and Dual\* in rounds ([`parallel_sss`](crate::drivers::parallel_sss)).
    pub fn has_parallel_form(self) -> bool {
        self.capabilities().parallel != ParallelForm::None
    }

    /// Whether it runs on several threads when asked for them `how`: the
    /// depth-first algorithms but minimax always; SSS\* and Dual\* only in
    /// rounds ([`Parallel::Rounds`]: on free leaves their rounds cost more
    /// wall time than one thread, so no other way sends them there).
    pub fn runs_parallel(self, how: Parallel) -> bool {
        match self.capabilities().parallel {
            ParallelForm::SharedTable { .. } => true,
            ParallelForm::Rounds => how == Parallel::Rounds,
            ParallelForm::None => false,
        }
    }

    /// One search of `game` as the algorithm's own module does it, with
    /// the table it makes itself (the drivers add presearch, deepening and
    /// threads around it).
    pub(crate) fn observed_plain<G: Game, O: Observer>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        match self {
            Algorithm::Minimax => minimax::search_observed(game, opts, obs),
            Algorithm::AlphaBeta => alphabeta::search_observed(game, opts, obs),
            Algorithm::NegaScout => negascout::search_observed(game, opts, obs),
            Algorithm::Sss => sss::search_observed(game, opts, obs),
            Algorithm::Dual => dual::search_observed(game, opts, obs),
            Algorithm::RecSss => recsss::search_observed(game, opts, obs),
            Algorithm::RecDual => recdual::search_observed(game, opts, obs),
            Algorithm::Sss2 => sss2::search_observed(game, opts, obs),
            Algorithm::Gsearch => gsearch::search_observed(game, opts, obs),
            Algorithm::Rsearch => rsearch::search_observed(game, opts, obs),
            Algorithm::MtSss => mt_sss::search_observed(game, opts, obs),
            Algorithm::MtDual => mt_dual::search_observed(game, opts, obs),
            Algorithm::Mtdf => mtdf::search_observed(game, opts, obs),
            Algorithm::MtdBi => mtd_bi::search_observed(game, opts, obs),
            Algorithm::Bns => bns::search_observed(game, opts, obs),
        }
    }

    /// One search of `game` through `table`, with `heur` and a first root
    /// window where the algorithm takes them; the others search as
    /// [`Algorithm::observed_plain`] does.
    pub(crate) fn dispatch<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: T,
        heur: &mut Heuristics,
        window: (Value, Value),
    ) -> Result<Outcome<G::Move>, SearchError> {
        match self {
            Algorithm::AlphaBeta => alphabeta::search_kept(game, opts, obs, table, heur, window),
            Algorithm::NegaScout => negascout::search_kept(game, opts, obs, table, heur, window),
            Algorithm::MtSss => mt_sss::search_kept(game, opts, obs, table, heur),
            Algorithm::MtDual => mt_dual::search_kept(game, opts, obs, table, heur),
            Algorithm::Mtdf => mtdf::search_kept(game, opts, obs, table, heur),
            Algorithm::MtdBi => mtd_bi::search_kept(game, opts, obs, table, heur),
            Algorithm::Bns => {
                let (mut rutko, mut bisect) = (bns::Rutko, bns::Bisect);
                let guess: &mut dyn bns::Guess = match opts.params.bns_guess {
                    bns::GuessKind::Rutko => &mut rutko,
                    bns::GuessKind::Bisect => &mut bisect,
                };
                bns::search_kept(game, opts, guess, obs, table, heur)
            }
            _ => self.observed_plain(game, opts, obs),
        }
    }

    /// Whether the algorithm keeps an OPEN list (or OPEN arrays).
    pub fn is_best_first(self) -> bool {
        self.capabilities().order() == Order::BestFirst
    }

    /// Whether the algorithm needs a transposition table (and so a hash).
    pub fn needs_table(self) -> bool {
        self.capabilities().table == TableUse::Required
    }

    /// Whether the algorithm returns the root's value (all but BNS, which
    /// returns a best move and a bound).
    pub fn finds_value(self) -> bool {
        self.capabilities().answer == Answer::Value
    }

    /// Whether it can drive a game-playing [`Engine`](crate::Engine)
    /// (depth-first, with a table): what `play`, `match`, UCI and Python
    /// engines accept.
    pub fn drives_engine(self) -> bool {
        self.capabilities().engine()
    }
}

impl std::fmt::Display for Algorithm {
    /// The `--algo` name; honours width and alignment (`{algo:<10}`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// An algorithm name that is not in [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl std::fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown algorithm `{}` (known: {}, or `all`)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl std::str::FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == t)
            .ok_or_else(|| UnknownAlgorithm(s.trim().to_string()))
    }
}

impl Algorithm {
    /// Parses a comma-separated list of names, or `all`.
    pub fn parse_list(list: &str) -> Result<Vec<Algorithm>, UnknownAlgorithm> {
        if list.trim().eq_ignore_ascii_case("all") {
            return Ok(Algorithm::ALL.to_vec());
        }
        let mut out = Vec::new();
        for name in list.split(',') {
            if name.trim().is_empty() {
                return Err(UnknownAlgorithm(String::new()));
            }
            let a: Algorithm = name.parse()?;
            if !out.contains(&a) {
                out.push(a);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::Algorithm;

    #[test]
    fn display_is_the_name_and_honours_width() {
        assert_eq!(format!("{}", Algorithm::MtSss), "mt-sss");
        assert_eq!(format!("[{:<8}]", Algorithm::Sss), "[sss     ]");
        assert_eq!(format!("[{:>6}]", Algorithm::Mtdf), "[  mtdf]");
    }
}
