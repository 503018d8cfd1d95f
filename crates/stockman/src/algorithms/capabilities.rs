//! What each algorithm is and needs, as data: one row per [`Algorithm`],
//! which every predicate reads ([`Algorithm::is_best_first`],
//! [`Algorithm::needs_table`], [`Algorithm::runs_parallel`], ...), the
//! command line (its help too), UCI, Python and the experiments included.
//! A new algorithm is a module, a row here and one dispatch arm; the
//! README's and the guide's algorithm tables repeat each row's summary,
//! and the CLI's docs test fails until they do.

use super::Algorithm;

/// The family an algorithm belongs to, as the guide groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The baselines: minimax, alpha-beta, NegaScout.
    Baseline,
    /// Stockman's SSS\* and its dual with an OPEN list.
    BestFirst,
    /// The recursive SSS\* and Dual\* of 1990: RecSSS\* and RecDual\*
    /// (OPEN arrays) and SSS-2 (one max solution tree).
    Recursive,
    /// Ibaraki's generalized search over a partial tree with bounds:
    /// GSEARCH and its bounded-memory RSEARCH.
    Generalized,
    /// The null-window drivers of the MT framework (MT-SSS\*, MT-Dual\*,
    /// MTD(f), MTD(bi)).
    NullWindow,
    /// Best Node Search: separation tests for a best move.
    BestNode,
}

/// In what order an algorithm visits the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Depth-first recursion (iterative deepening drives these).
    DepthFirst,
    /// Best-first, with an OPEN list or OPEN arrays.
    BestFirst,
}

/// What an algorithm needs of a transposition table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableUse {
    /// It keeps none (minimax, and the best-first searches, whose OPEN
    /// list is their memory).
    None,
    /// It uses one when given one (alpha-beta, NegaScout).
    Optional,
    /// It cannot run without one (the MT drivers and BNS): the game must
    /// provide a hash.
    Required,
}

/// What an algorithm answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// The root's minimax value and a best move.
    Value,
    /// A best move and a bound that holds the value (BNS).
    Bound,
}

/// How an algorithm runs on several threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParallelForm {
    /// It has none and runs on one thread.
    None,
    /// Every thread searches through one shared table (Lazy SMP), and
    /// under ABDADA also puts off the moves another thread is on when
    /// `shares_work`.
    SharedTable {
        /// Whether ABDADA's exclusive search applies (NegaScout, whose
        /// recursion is its own, runs as under Lazy SMP).
        shares_work: bool,
    },
    /// Synchronous rounds of states off OPEN
    /// ([`parallel_sss`](crate::drivers::parallel_sss)), only when asked for.
    Rounds,
}

/// A setting that only some algorithms read: asking for it with none of
/// them is an error ([`readers`]), never a silently ignored option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knob {
    /// GSEARCH's and RSEARCH's rule for the next tip ([`Select`](crate::Select)).
    Select,
    /// RSEARCH's memory bound in stored nodes.
    Memory,
}

impl Knob {
    /// Every knob.
    pub const ALL: [Knob; 2] = [Knob::Select, Knob::Memory];

    /// Its name in the library's settings ([`Settings`](crate::run::Settings)'s field).
    pub const fn name(self) -> &'static str {
        match self {
            Knob::Select => "select",
            Knob::Memory => "memory",
        }
    }
}

/// The algorithms whose rows read `knob`, in the table's order.
pub fn readers(knob: Knob) -> Vec<Algorithm> {
    CAPABILITIES
        .iter()
        .filter(|c| c.reads.contains(&knob))
        .map(|c| c.algorithm)
        .collect()
}

/// One algorithm's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capabilities {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its name on the command line, in reports and in Python.
    pub name: &'static str,
    /// What it is, in a line of Markdown with its source: what the
    /// guide's and the README's tables of algorithms print (a test holds
    /// them to it).
    pub summary: &'static str,
    /// Its family (which also says its [order](Capabilities::order)).
    pub family: Family,
    /// What it needs of a table.
    pub table: TableUse,
    /// Value or bound.
    pub answer: Answer,
    /// Its form on several threads.
    pub parallel: ParallelForm,
    /// Whether it searches one root window that a caller may narrow (an
    /// aspiration window: alpha-beta, NegaScout); the drivers choose their own.
    pub windowed: bool,
    /// Whether it starts from the lower bound (Dual\*, RecDual\*, MT-Dual\*):
    /// the trace viewer draws these from below.
    pub dual: bool,
    /// The settings only some algorithms read that this one reads.
    pub reads: &'static [Knob],
}

impl Capabilities {
    /// Depth-first or best-first, as its family is.
    pub const fn order(&self) -> Order {
        match self.family {
            Family::BestFirst | Family::Recursive | Family::Generalized => Order::BestFirst,
            _ => Order::DepthFirst,
        }
    }

    /// Whether it can drive a game-playing [`Engine`](crate::Engine):
    /// depth-first and using a table (minimax keeps none and is no engine).
    pub const fn engine(&self) -> bool {
        matches!(self.order(), Order::DepthFirst) && !matches!(self.table, TableUse::None)
    }
}

const fn row(
    algorithm: Algorithm,
    name: &'static str,
    summary: &'static str,
    family: Family,
    table: TableUse,
    parallel: ParallelForm,
) -> Capabilities {
    Capabilities {
        algorithm,
        name,
        summary,
        family,
        table,
        answer: Answer::Value,
        parallel,
        windowed: false,
        dual: false,
        reads: &[],
    }
}

const SHARED: ParallelForm = ParallelForm::SharedTable { shares_work: true };

/// Every algorithm's row, in the order of [`Algorithm::ALL`] (and of the
/// enum's variants: [`Algorithm::capabilities`] indexes it).
pub const CAPABILITIES: &[Capabilities] = &[
    row(
        Algorithm::Minimax,
        "minimax",
        "the definition: every leaf",
        Family::Baseline,
        TableUse::None,
        ParallelForm::None,
    ),
    Capabilities {
        windowed: true,
        ..row(
            Algorithm::AlphaBeta,
            "alphabeta",
            "fail-soft alpha-beta, left to right (Knuth and Moore 1975)",
            Family::Baseline,
            TableUse::Optional,
            SHARED,
        )
    },
    Capabilities {
        windowed: true,
        ..row(
            Algorithm::NegaScout,
            "negascout",
            "NegaScout / PVS (Reinefeld 1983): null-window tests, re-search on fail high",
            Family::Baseline,
            TableUse::Optional,
            ParallelForm::SharedTable { shares_work: false },
        )
    },
    row(
        Algorithm::Sss,
        "sss",
        "Stockman's SSS\\* (1979): an OPEN list of `(node, LIVE/SOLVED, h)` and the six Gamma cases",
        Family::BestFirst,
        TableUse::None,
        ParallelForm::Rounds,
    ),
    Capabilities {
        dual: true,
        ..row(
            Algorithm::Dual,
            "dual",
            "Dual\\* (Marsland, Reinefeld and Schaeffer 1987): SSS\\* with MAX and MIN exchanged",
            Family::BestFirst,
            TableUse::None,
            ParallelForm::Rounds,
        )
    },
    row(
        Algorithm::RecSss,
        "recsss",
        "RecSSS\\* (Bhattacharya and Bagchi 1990; Reinefeld's OPEN arrays)",
        Family::Recursive,
        TableUse::None,
        ParallelForm::None,
    ),
    Capabilities {
        dual: true,
        ..row(
            Algorithm::RecDual,
            "recdual",
            "RecDual\\*",
            Family::Recursive,
            TableUse::None,
            ParallelForm::None,
        )
    },
    row(
        Algorithm::Sss2,
        "sss2",
        "SSS-2 (Pijls and de Bruin 1990): SSS\\* as two recursive procedures over one max solution tree",
        Family::Recursive,
        TableUse::None,
        ParallelForm::None,
    ),
    Capabilities {
        reads: &[Knob::Select],
        ..row(
            Algorithm::Gsearch,
            "gsearch",
            "GSEARCH (Ibaraki 1986): bounds on a partial tree, a rule (`--select`) picks the tip to expand",
            Family::Generalized,
            TableUse::None,
            ParallelForm::None,
        )
    },
    Capabilities {
        reads: &[Knob::Select, Knob::Memory],
        ..row(
            Algorithm::Rsearch,
            "rsearch",
            "RSEARCH (Ibaraki 1986): GSEARCH in `--memory M` stored nodes, depth-first beyond them",
            Family::Generalized,
            TableUse::None,
            ParallelForm::None,
        )
    },
    row(
        Algorithm::MtSss,
        "mt-sss",
        "MT-SSS\\*: null-window passes from +∞ with a table (Plaat, Schaeffer, Pijls and de Bruin 1996)",
        Family::NullWindow,
        TableUse::Required,
        SHARED,
    ),
    Capabilities {
        dual: true,
        ..row(
            Algorithm::MtDual,
            "mt-dual",
            "MT-Dual\\*: passes from −∞",
            Family::NullWindow,
            TableUse::Required,
            SHARED,
        )
    },
    row(
        Algorithm::Mtdf,
        "mtdf",
        "MTD(f): passes from a first guess (`--first-guess`, default 0)",
        Family::NullWindow,
        TableUse::Required,
        SHARED,
    ),
    row(
        Algorithm::MtdBi,
        "mtd-bi",
        "MTD(bi): bisection of the proven bounds, with Pons' test values",
        Family::NullWindow,
        TableUse::Required,
        SHARED,
    ),
    Capabilities {
        answer: Answer::Bound,
        ..row(
            Algorithm::Bns,
            "bns",
            "Best Node Search (Rutko 2011): a best move and a bound, not the value",
            Family::BestNode,
            TableUse::Required,
            SHARED,
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_algorithm_in_order_with_unique_names() {
        assert_eq!(CAPABILITIES.len(), Algorithm::ALL.len());
        for (i, (&a, c)) in Algorithm::ALL.iter().zip(CAPABILITIES).enumerate() {
            assert_eq!(c.algorithm, a, "row {i}");
            assert_eq!(a as usize, i, "{a}: the enum's order is the table's");
            assert!(!CAPABILITIES[..i].iter().any(|o| o.name == c.name), "{} twice", c.name);
        }
    }

    #[test]
    fn the_rows_say_what_the_literature_says() {
        let names = |f: &dyn Fn(&Capabilities) -> bool| {
            CAPABILITIES.iter().filter(|c| f(c)).map(|c| c.name).collect::<Vec<_>>()
        };
        assert_eq!(
            names(&|c| c.order() == Order::BestFirst),
            ["sss", "dual", "recsss", "recdual", "sss2", "gsearch", "rsearch"]
        );
        assert_eq!(
            names(&|c| c.table == TableUse::Required),
            ["mt-sss", "mt-dual", "mtdf", "mtd-bi", "bns"]
        );
        assert_eq!(names(&|c| c.answer == Answer::Bound), ["bns"]);
        assert_eq!(names(&|c| c.dual), ["dual", "recdual", "mt-dual"]);
        assert_eq!(names(&|c| c.windowed), ["alphabeta", "negascout"]);
        assert_eq!(
            names(&|c| c.engine()),
            ["alphabeta", "negascout", "mt-sss", "mt-dual", "mtdf", "mtd-bi", "bns"]
        );
        assert_eq!(
            names(&|c| c.parallel == ParallelForm::None),
            ["minimax", "recsss", "recdual", "sss2", "gsearch", "rsearch"]
        );
        assert_eq!(names(&|c| c.parallel == ParallelForm::Rounds), ["sss", "dual"]);
        assert_eq!(readers(Knob::Select), [Algorithm::Gsearch, Algorithm::Rsearch]);
        assert_eq!(readers(Knob::Memory), [Algorithm::Rsearch]);
    }
}
