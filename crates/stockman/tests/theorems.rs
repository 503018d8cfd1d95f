//! The theorems of the SSS* family, checked on thousands of random trees:
//! variable branching, leaves at mixed depths, many ties, extreme values,
//! MAX and MIN roots.

use proptest::prelude::*;
use std::collections::BTreeSet;
use stockman::Params;
use stockman::{
    Algorithm, Event, ExplicitTree, Game, Gamma, LeafRecorder, Nested, RandomSpec, RandomTree, Role, SearchOptions,
    Select, Tracer, Value, VALUE_MAX, VALUE_MIN,
};

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => 0..4,                    // many ties
        4 => -1000..1000,
        1 => Just(VALUE_MIN),
        1 => Just(VALUE_MAX),
        1 => prop_oneof![Just(VALUE_MIN + 1), Just(VALUE_MAX - 1)],
    ]
}

/// Ragged trees: any branching from 1 to 5, leaves at any depth up to 7.
fn nested() -> impl Strategy<Value = Nested> {
    value().prop_map(Nested::Leaf).prop_recursive(7, 400, 5, |inner| {
        prop::collection::vec(inner, 1..=5).prop_map(Nested::Node)
    })
}

/// The same shapes with no two leaves equal: each leaf gets its rank in
/// (value, position) order, so the order of unequal values is kept.
fn untied() -> impl Strategy<Value = ExplicitTree> {
    fn collect(n: &Nested, out: &mut Vec<Value>) {
        match n {
            Nested::Leaf(v) => out.push(*v),
            Nested::Node(kids) => kids.iter().for_each(|k| collect(k, out)),
        }
    }
    fn relabel(n: &Nested, ranks: &[Value], next: &mut usize) -> Nested {
        match n {
            Nested::Leaf(_) => {
                *next += 1;
                Nested::Leaf(ranks[*next - 1])
            }
            Nested::Node(kids) => Nested::Node(kids.iter().map(|k| relabel(k, ranks, next)).collect()),
        }
    }
    (nested(), prop_oneof![3 => Just(Role::Max), 1 => Just(Role::Min)]).prop_map(|(n, r)| {
        let mut vals = Vec::new();
        collect(&n, &mut vals);
        let mut order: Vec<usize> = (0..vals.len()).collect();
        order.sort_by_key(|&i| (vals[i], i));
        let mut ranks = vec![0; vals.len()];
        for (rank, &i) in order.iter().enumerate() {
            ranks[i] = rank as Value;
        }
        ExplicitTree::from_nested(&relabel(&n, &ranks, &mut 0), r)
    })
}

fn tree() -> impl Strategy<Value = ExplicitTree> {
    (nested(), prop_oneof![3 => Just(Role::Max), 1 => Just(Role::Min)])
        .prop_map(|(n, r)| ExplicitTree::from_nested(&n, r))
}

/// Minimax value of every node, computed independently of the crate's searches.
fn values(t: &ExplicitTree) -> Vec<Value> {
    let mut v = vec![0; t.len()];
    for n in (0..t.len() as u32).rev() {
        let kids = t.children(n);
        v[n as usize] = if kids.is_empty() {
            t.leaf_value(n)
        } else {
            let it = kids.iter().map(|&c| v[c as usize]);
            match t.role(&n) {
                Role::Max => it.max().unwrap(),
                Role::Min => it.min().unwrap(),
            }
        };
    }
    v
}

/// Whether `a`'s items appear in `b` in the same order (`b` may have more).
fn is_subsequence<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let mut rest = b.iter();
    a.iter().all(|x| rest.any(|y| y == x))
}

/// Whether no two leaves of `t` have the same value.
fn leaf_values_are_distinct(t: &ExplicitTree) -> bool {
    let leaves: Vec<Value> = (0..t.len() as u32)
        .filter(|&n| t.children(n).is_empty())
        .map(|n| t.leaf_value(n))
        .collect();
    leaves.iter().collect::<BTreeSet<_>>().len() == leaves.len()
}

/// The most nodes a max solution tree under `n` has: every child of a MAX
/// node, the largest one child of a MIN node.
fn largest_max_solution_tree(t: &ExplicitTree, n: u32) -> u64 {
    let kids = t.children(n).iter().map(|&c| largest_max_solution_tree(t, c));
    1 + match t.role(&n) {
        _ if t.children(n).is_empty() => 0,
        Role::Max => kids.sum(),
        Role::Min => kids.max().unwrap_or(0),
    }
}

fn run(a: Algorithm, t: &ExplicitTree) -> (stockman::Outcome<u32>, Vec<Vec<u32>>) {
    run_with(a, t, Params::default())
}

fn run_with<G: Game>(a: Algorithm, t: &G, params: Params) -> (stockman::Outcome<G::Move>, Vec<Vec<u32>>) {
    let mut rec = LeafRecorder::default();
    let opts = SearchOptions {
        params,
        ..SearchOptions::default()
    };
    let out = a.with_options(&opts).observer(&mut rec).run(t).unwrap();
    (out, rec.paths())
}

fn rule(select: Select) -> Params {
    Params {
        select,
        ..Params::default()
    }
}

fn memory(select: Select, m: usize) -> Params {
    Params {
        select,
        memory: Some(m),
        ..Params::default()
    }
}

/// 3000 trees per theorem, from a fixed seed so that CI is reproducible;
/// set `PROPTEST_RNG_SEED` to explore other trees.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig {
        cases: 3000,
        ..ProptestConfig::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(0x5353_5321);
    }
    config
}

proptest! {
    #![proptest_config(config())]

    /// Theorem 1 and 6: every algorithm finds the minimax value (BNS: a move
    /// that holds it), every best move holds it, and the leaf counts in the
    /// stats equal the recorded leaf lists.
    #[test]
    fn every_algorithm_finds_the_minimax_value(t in tree()) {
        let v = values(&t);
        let root = v[0];
        for &a in Algorithm::ALL {
            let (out, leaves) = run(a, &t);
            prop_assert_eq!(out.stats.leaf_evals as usize, leaves.len(), "{}: leaf count", a);
            // Bisection-style searches need a number of passes logarithmic
            // in the value range (2^31), at most 1/log2(5/4) times more for
            // BNS's skewed guess with five moves; a linear scan would not end.
            if matches!(a, Algorithm::MtdBi | Algorithm::Bns) {
                prop_assert!(out.stats.passes <= 100, "{}: {} passes", a, out.stats.passes);
            }
            if a.finds_value() {
                prop_assert_eq!(out.value, Some(root), "{}", a);
            } else {
                let (lo, hi) = out.bound.unwrap();
                prop_assert!(lo <= root && root < hi, "{}: bound {}..{} misses {}", a, lo, hi, root);
            }
            match out.best_index {
                Some(i) => {
                    let child = t.children(0)[i];
                    prop_assert_eq!(v[child as usize], root, "{}: best move {} does not hold the value", a, i);
                }
                None => prop_assert!(t.children(0).is_empty(), "{}: no best move", a),
            }
        }
    }

    /// Theorem 1 for Best Node Search started inside a window around a
    /// first test (as iterative deepening gives it one): whatever the test
    /// and the width, the bound holds the value and the move holds it.
    #[test]
    fn bns_from_any_first_window_holds_the_value(t in tree(), first in value(), width in prop_oneof![1..4, 1..2000, Just(VALUE_MAX)]) {
        let v = values(&t);
        let root = v[0];
        let opts = SearchOptions { params: Params { bns_first_test: Some(first), bns_window: Some(width), ..Default::default() }, ..SearchOptions::default() };
        let out = Algorithm::Bns.search(&t, &opts).unwrap();
        // Logarithmic: at most 16 widenings by 4 from a width of 1 to the
        // 2^32 values of the range, then Rutko's passes inside.
        prop_assert!(out.stats.passes <= 140, "{} passes", out.stats.passes);
        let (lo, hi) = out.bound.unwrap();
        prop_assert!(lo <= root && root < hi, "bound {}..{} misses {}", lo, hi, root);
        match out.best_index {
            Some(i) => prop_assert_eq!(v[t.children(0)[i] as usize], root, "best move {} does not hold the value", i),
            None => prop_assert!(t.children(0).is_empty()),
        }
    }

    /// Theorem 2: the SSS* family never evaluates a leaf that full-window,
    /// left-to-right alpha-beta skips.
    #[test]
    fn sss_family_never_evaluates_a_leaf_alphabeta_skips(t in tree()) {
        let (_, ab) = run(Algorithm::AlphaBeta, &t);
        let ab: BTreeSet<Vec<u32>> = ab.into_iter().collect();
        for a in [Algorithm::Sss, Algorithm::Dual, Algorithm::RecSss, Algorithm::RecDual, Algorithm::Sss2, Algorithm::MtSss, Algorithm::MtDual] {
            let (_, l) = run(a, &t);
            for leaf in &l {
                prop_assert!(ab.contains(leaf), "{} evaluated {:?}, which alpha-beta skips", a, leaf);
            }
            // And none of them evaluates a leaf twice.
            let set: BTreeSet<_> = l.iter().collect();
            prop_assert_eq!(set.len(), l.len(), "{} evaluated a leaf twice", a);
        }
    }

    /// Theorem 3: MT-SSS* evaluates the same leaves in the same order as
    /// SSS*; MT-Dual* as Dual*.
    #[test]
    fn mt_drivers_equal_their_best_first_originals(t in tree()) {
        prop_assert_eq!(run(Algorithm::MtSss, &t).1, run(Algorithm::Sss, &t).1, "MT-SSS* vs SSS*");
        prop_assert_eq!(run(Algorithm::MtDual, &t).1, run(Algorithm::Dual, &t).1, "MT-Dual* vs Dual*");
    }

    /// SSS-2 (Pijls and de Bruin 1990) evaluates SSS*'s leaves in SSS*'s
    /// order, in as many passes as MT-SSS* (one `diminish` is one pass),
    /// and stores at most one max solution tree at any time.
    #[test]
    fn sss2_evaluates_sss_leaves_in_sss_order_within_one_solution_tree(t in tree()) {
        let (out, leaves) = run(Algorithm::Sss2, &t);
        prop_assert_eq!(&leaves, &run(Algorithm::Sss, &t).1, "SSS-2 vs SSS*");
        prop_assert_eq!(out.stats.passes, run(Algorithm::MtSss, &t).0.stats.passes, "SSS-2's passes vs MT-SSS*'s");
        let most = largest_max_solution_tree(&t, 0);
        prop_assert!(out.stats.max_open <= most, "SSS-2 stored {} nodes; a max solution tree has at most {}", out.stats.max_open, most);
    }

    /// GSEARCH (Ibaraki 1986) is alpha-beta under the leftmost rule, leaf
    /// for leaf. Under the largest upper bound it evaluates SSS*'s leaves in
    /// SSS*'s order, except some that SSS* evaluates on ties: a subsequence
    /// of SSS*'s leaves, all of them when no two leaves are equal (SSS* never
    /// prunes by a lower bound; GSEARCH's window does, where a brother's
    /// lower bound equals the node's upper bound). The smallest lower bound
    /// is Dual* the same way. Under every rule (`widest`, ours, included) it
    /// finds the value and a move that holds it, and evaluates no leaf twice.
    #[test]
    fn gsearch_rules_are_alphabeta_sss_and_dual(t in tree()) {
        let v = values(&t);
        let distinct = leaf_values_are_distinct(&t);
        let expected = [
            (Select::Leftmost, Some((run(Algorithm::AlphaBeta, &t).1, true))),
            (Select::Upper, Some((run(Algorithm::Sss, &t).1, distinct))),
            (Select::Lower, Some((run(Algorithm::Dual, &t).1, distinct))),
            (Select::Widest, None),
        ];
        for (select, want) in expected {
            let (out, leaves) = run_with(Algorithm::Gsearch, &t, rule(select));
            prop_assert_eq!(out.value, Some(v[0]), "{}", select);
            match out.best_index {
                Some(i) => prop_assert_eq!(v[t.children(0)[i] as usize], v[0], "{}: best move {}", select, i),
                None => prop_assert!(t.children(0).is_empty(), "{}: no best move", select),
            }
            prop_assert_eq!(leaves.iter().collect::<BTreeSet<_>>().len(), leaves.len(), "{} evaluated a leaf twice", select);
            if let Some((want, exactly)) = want {
                prop_assert!(is_subsequence(&leaves, &want), "gsearch --select {}: {:?} is not a subsequence of {:?}", select, leaves, want);
                if exactly {
                    prop_assert_eq!(&leaves, &want, "gsearch --select {} on distinct leaves", select);
                }
            }
        }
    }

    /// With no two leaves equal, GSEARCH under the largest upper bound is
    /// SSS* leaf for leaf, and under the smallest lower bound Dual*.
    #[test]
    fn gsearch_is_sss_and_dual_without_ties(t in untied()) {
        prop_assert!(leaf_values_are_distinct(&t));
        prop_assert_eq!(run_with(Algorithm::Gsearch, &t, rule(Select::Upper)).1, run(Algorithm::Sss, &t).1, "upper vs SSS*");
        prop_assert_eq!(run_with(Algorithm::Gsearch, &t, rule(Select::Lower)).1, run(Algorithm::Dual, &t).1, "lower vs Dual*");
    }

    /// RSEARCH: with no memory it is alpha-beta leaf for leaf, with memory
    /// enough it is GSEARCH under the same rule, and at every budget between
    /// it finds the value, a move that holds it, and stores at most its
    /// budget (the root counts as one).
    #[test]
    fn rsearch_goes_from_alphabeta_to_gsearch_as_memory_grows(t in tree(), select in prop_oneof![Just(Select::Leftmost), Just(Select::Upper), Just(Select::Lower), Just(Select::Widest)]) {
        let v = values(&t);
        let (ab_out, ab) = run(Algorithm::AlphaBeta, &t);
        let (out, leaves) = run_with(Algorithm::Rsearch, &t, memory(select, 0));
        prop_assert_eq!(&leaves, &ab, "rsearch --memory 0 vs alpha-beta");
        prop_assert_eq!(out.best_index, ab_out.best_index, "rsearch --memory 0's best move");
        let (_, g) = run_with(Algorithm::Gsearch, &t, rule(select));
        let (out, leaves) = run_with(Algorithm::Rsearch, &t, memory(select, t.len()));
        prop_assert_eq!(&leaves, &g, "rsearch with memory for the whole tree vs gsearch --select {}", select);
        prop_assert_eq!(out.stats.passes, 0);
        for m in [1, 2, 3, 5, 8, 13, 21, 34] {
            let (out, _) = run_with(Algorithm::Rsearch, &t, memory(select, m));
            prop_assert_eq!(out.value, Some(v[0]), "--memory {}", m);
            match out.best_index {
                Some(i) => prop_assert_eq!(v[t.children(0)[i] as usize], v[0], "--memory {}: best move {}", m, i),
                None => prop_assert!(t.children(0).is_empty()),
            }
            prop_assert!(out.stats.max_open <= m as u64, "--memory {}: stored {}", m, out.stats.max_open);
        }
    }

    /// RSEARCH under every memory bound, from none to more than GSEARCH
    /// stores, evaluates only leaves that full-window left-to-right
    /// alpha-beta evaluates, each once, so never more of them (issue 63):
    /// under `leftmost`, `upper` and `lower` every tip it takes is one
    /// alpha-beta visits, and it searches depth-first only the leftmost live
    /// tip, whose window lies inside alpha-beta's window there.
    #[test]
    fn rsearch_never_evaluates_a_leaf_alphabeta_skips(t in tree(), select in prop_oneof![Just(Select::Leftmost), Just(Select::Upper), Just(Select::Lower)]) {
        let v = values(&t);
        let (_, ab) = run(Algorithm::AlphaBeta, &t);
        let ab: BTreeSet<Vec<u32>> = ab.into_iter().collect();
        let peak = run_with(Algorithm::Gsearch, &t, rule(select)).0.stats.max_open as usize;
        for m in 0..=peak + 1 {
            let (out, leaves) = run_with(Algorithm::Rsearch, &t, memory(select, m));
            prop_assert_eq!(out.value, Some(v[0]), "--memory {}", m);
            prop_assert_eq!(out.stats.leaf_evals as usize, leaves.len());
            let set: BTreeSet<&Vec<u32>> = leaves.iter().collect();
            prop_assert_eq!(set.len(), leaves.len(), "--select {} --memory {}: a leaf evaluated twice", select, m);
            for leaf in &leaves {
                prop_assert!(ab.contains(leaf), "--select {} --memory {}: {:?}, which alpha-beta skips", select, m, leaf);
            }
        }
    }

    /// Theorem 4: RecSSS* evaluates the same set of leaves as SSS*; RecDual* as Dual*.
    #[test]
    fn recursive_versions_evaluate_the_same_leaves(t in tree()) {
        let set = |a| run(a, &t).1.into_iter().collect::<BTreeSet<_>>();
        prop_assert_eq!(set(Algorithm::RecSss), set(Algorithm::Sss), "RecSSS* vs SSS*");
        prop_assert_eq!(set(Algorithm::RecDual), set(Algorithm::Dual), "RecDual* vs Dual*");
    }

    /// Theorem 5: MTD(f) given the exact value as first guess finishes in two passes.
    #[test]
    fn mtdf_with_the_value_as_guess_takes_two_passes(t in tree()) {
        prop_assume!(!t.children(0).is_empty());
        let v = values(&t)[0];
        let opts = SearchOptions { params: Params { first_guess: v, ..Default::default() }, ..Default::default() };
        let out = Algorithm::Mtdf.search(&t, &opts).unwrap();
        prop_assert_eq!(out.value, Some(v));
        prop_assert_eq!(out.stats.passes, 2);
    }

    /// When a node is SOLVED under a parent of the expanding role, *every*
    /// descendant of that parent leaves OPEN; and OPEN never holds a node
    /// together with one of its ancestors.
    #[test]
    fn purges_remove_every_descendant(t in tree()) {
        for a in [Algorithm::Sss, Algorithm::Dual] {
            let mut tr = Tracer::default();
            let traced = a.with_options(&SearchOptions::default()).observer(&mut tr).run(&t).unwrap();
            // Tracing changes nothing the search does.
            let (plain, leaves) = run(a, &t);
            prop_assert_eq!((traced.value, traced.best_index), (plain.value, plain.best_index));
            let (mut ts, mut ps) = (traced.stats, plain.stats);
            ts.time_us = 0;
            ps.time_us = 0;
            prop_assert_eq!(ts, ps, "{}: traced and untraced stats differ", a);
            let traced_leaves: Vec<Vec<u32>> = tr.events.iter().filter_map(|e| match e {
                Event::Leaf { path, .. } => Some(path.clone()),
                _ => None,
            }).collect();
            prop_assert_eq!(traced_leaves, leaves, "{}: traced leaves differ", a);
            for e in &tr.events {
                let Event::Step(s) = e else { continue };
                for x in &s.open {
                    for y in &s.open {
                        prop_assert!(x == y || !y.node.starts_with(&x.node), "{}: step {} has {} and its descendant {}", a, s.step, x, y);
                    }
                }
                if s.case == Gamma::SolveParentPurge {
                    let parent = &s.popped.node[..s.popped.node.len() - 1];
                    for x in &s.open {
                        prop_assert!(x.node.len() <= parent.len() || !x.node.starts_with(parent),
                            "{}: step {} left {} below the solved parent", a, s.step, x);
                    }
                }
            }
        }
    }

    /// Random trees of the research models: every algorithm agrees with minimax.
    #[test]
    fn random_model_trees_agree_with_minimax(
        width in 1u32..5, depth in 0u32..6, seed in any::<u64>(), inc in any::<bool>(),
        variable in any::<bool>(), order in prop::option::of(0.0f64..=1.0),
    ) {
        let mut spec = RandomSpec::new(width, depth, seed);
        spec.variable = variable;
        spec.order = order;
        if inc {
            spec.model = stockman::ValueModel::Incremental;
            spec.range = (-5, 5);
        } else {
            spec.range = (0, 9);
        }
        let t = RandomTree::new(spec);
        let want = Algorithm::Minimax.search(&t, &SearchOptions::default()).unwrap().value;
        for &a in Algorithm::ALL {
            let out = a.search(&t, &SearchOptions::default()).unwrap();
            // Bisection-style searches need a number of passes logarithmic
            // in the value range (2^31), at most 1/log2(5/4) times more for
            // BNS's skewed guess with five moves; a linear scan would not end.
            if matches!(a, Algorithm::MtdBi | Algorithm::Bns) {
                prop_assert!(out.stats.passes <= 100, "{}: {} passes", a, out.stats.passes);
            }
            if a.finds_value() {
                prop_assert_eq!(out.value, want, "{}", a);
            }
        }
    }
}

/// Leaves evaluated by `a` on a game, in order.
fn leaves_of<G: Game>(a: Algorithm, g: &G) -> Vec<Vec<u32>> {
    let mut rec = LeafRecorder::default();
    a.with_options(&SearchOptions::default())
        .observer(&mut rec)
        .run(g)
        .unwrap();
    rec.paths()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..config() })]

    /// Theorems 2, 3 and 4 on bigger trees of the research models (up to
    /// hundreds of thousands of leaves, OPEN lists of hundreds of states with
    /// many distinct merits), where the small trees above cannot exercise
    /// the OPEN list's buckets and batches.
    #[test]
    fn theorems_hold_on_bigger_random_trees(
        width in 2u32..7, depth in 3u32..8, seed in any::<u64>(), model in 0u8..3, variable in any::<bool>(),
    ) {
        let mut spec = RandomSpec::new(width, depth, seed);
        spec.variable = variable;
        match model {
            0 => spec.range = (0, 9), // many ties
            1 => spec.range = (-1_000_000, 1_000_000),
            _ => spec.model = stockman::ValueModel::Incremental,
        }
        let t = RandomTree::new(spec);
        let ab: BTreeSet<Vec<u32>> = leaves_of(Algorithm::AlphaBeta, &t).into_iter().collect();
        let sss = leaves_of(Algorithm::Sss, &t);
        let dual = leaves_of(Algorithm::Dual, &t);
        for (name, l) in [("sss", &sss), ("dual", &dual)] {
            prop_assert!(l.iter().all(|x| ab.contains(x)), "{} evaluated a leaf alpha-beta skips", name);
            prop_assert_eq!(l.iter().collect::<BTreeSet<_>>().len(), l.len(), "{} evaluated a leaf twice", name);
        }
        prop_assert_eq!(&leaves_of(Algorithm::MtSss, &t), &sss, "MT-SSS* vs SSS*");
        prop_assert_eq!(&leaves_of(Algorithm::MtDual, &t), &dual, "MT-Dual* vs Dual*");
        prop_assert_eq!(&leaves_of(Algorithm::Sss2, &t), &sss, "SSS-2 vs SSS*");
        let gsearch = |select| {
            let mut rec = LeafRecorder::default();
            let opts = SearchOptions { params: rule(select), ..SearchOptions::default() };
            Algorithm::Gsearch.with_options(&opts).observer(&mut rec).run(&t).unwrap();
            rec.paths()
        };
        let all = {
            let mut rec = LeafRecorder::default();
            Algorithm::Minimax.with_options(&SearchOptions::default()).observer(&mut rec).run(&t).unwrap();
            rec.values()
        };
        let distinct = all.iter().collect::<BTreeSet<_>>().len() == all.len();
        let ab_order = leaves_of(Algorithm::AlphaBeta, &t);
        prop_assert_eq!(&gsearch(Select::Leftmost), &ab_order, "GSEARCH leftmost vs alpha-beta");
        for (select, want, name) in [(Select::Upper, &sss, "SSS*"), (Select::Lower, &dual, "Dual*")] {
            let g = gsearch(select);
            prop_assert!(is_subsequence(&g, want), "GSEARCH {} is not a subsequence of {}", select, name);
            if distinct {
                prop_assert_eq!(&g, want, "GSEARCH {} vs {} on distinct leaves", select, name);
            }
        }
        let set = |l: Vec<Vec<u32>>| l.into_iter().collect::<BTreeSet<_>>();
        prop_assert_eq!(set(leaves_of(Algorithm::RecSss, &t)), set(sss), "RecSSS* vs SSS*");
        prop_assert_eq!(set(leaves_of(Algorithm::RecDual, &t)), set(dual), "RecDual* vs Dual*");
    }
}

/// SSS-2's memory on uniform trees, exactly: its first pass builds one max
/// solution tree (every child of MAX, one of MIN), `1 + w + w + w^2 + w^2 +
/// ...` nodes over the `d + 1` levels of a MAX-rooted tree, and it never
/// holds more.
#[test]
fn sss2_holds_one_max_solution_tree_on_uniform_trees() {
    for width in 2..=5u32 {
        for depth in 1..=6u32 {
            let tree_nodes: u64 = (0..=depth).map(|k| u64::from(width).pow(k.div_ceil(2))).sum();
            for seed in 0..20 {
                let t = RandomTree::new(RandomSpec::new(width, depth, seed));
                let out = Algorithm::Sss2.search(&t, &SearchOptions::default()).unwrap();
                assert_eq!(
                    out.stats.max_open, tree_nodes,
                    "width {width} depth {depth} seed {seed}: SSS-2's peak"
                );
            }
        }
    }
}

/// FNV-1a over a search's leaf paths, in order, each closed by a marker.
fn fold_leaves(hash: &mut u64, leaves: &[Vec<u32>]) {
    let mut eat = |x: u64| {
        *hash ^= x;
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    for path in leaves {
        path.iter().for_each(|&i| eat(u64::from(i)));
        eat(u64::MAX);
    }
    eat(u64::MAX - 1);
}

/// GSEARCH's leaves, in order, under each rule on 3,720 random trees (ties,
/// wide ranges, incremental values, variable branching), pinned as a hash
/// and a count recorded from the walk that searched the stored tree from
/// the root at every step: a faster selection must choose the same tips.
#[test]
fn gsearch_leaf_order_is_pinned_under_every_rule() {
    let rules = [Select::Leftmost, Select::Upper, Select::Lower, Select::Widest];
    let mut hashes = [0xcbf2_9ce4_8422_2325u64; 4];
    let mut counts = [0usize; 4];
    let shapes = (2..=5u32)
        .flat_map(|w| (1..=6u32).map(move |d| (w, d, 25)))
        .chain([(8, 5, 10), (3, 9, 10)]);
    for (width, depth, seeds) in shapes {
        for seed in 0..seeds {
            for model in 0..3 {
                for variable in [false, true] {
                    let mut spec = RandomSpec::new(width, depth, seed);
                    spec.variable = variable;
                    match model {
                        0 => spec.range = (0, 3),
                        1 => spec.range = (-1000, 1000),
                        _ => {
                            spec.model = stockman::ValueModel::Incremental;
                            spec.range = (-3, 3);
                        }
                    }
                    let t = RandomTree::new(spec);
                    for (k, &select) in rules.iter().enumerate() {
                        let (_, leaves) = run_with(Algorithm::Gsearch, &t, rule(select));
                        counts[k] += leaves.len();
                        fold_leaves(&mut hashes[k], &leaves);
                    }
                }
            }
        }
    }
    assert_eq!(counts, [463_964, 347_100, 352_970, 380_349]);
    assert_eq!(
        hashes,
        [
            0x17fd_2499_d849_818d,
            0x4425_0e46_c766_4b62,
            0x4e08_cdba_807b_79ec,
            0xd6c7_6e6b_76d7_cdfa
        ]
    );
}

/// Issue 63's cases: RSEARCH under the default rule (`upper`) on width-8
/// random trees evaluated leaves alpha-beta skips (1,855 of them at
/// `--memory 64` on depth 6, seed 3) and more leaves than alpha-beta's
/// 371,239 on depth 8, seed 1 (385,474 at `--memory 100`, 399,536 at 1,000,
/// 351,009 at 3,000, 202,887 at 30,000).
#[test]
fn rsearch_stays_inside_alphabeta_on_the_issue_trees() {
    let leaves = |t: &RandomTree, m: usize| run_with(Algorithm::Rsearch, t, memory(Select::Upper, m));
    let t = RandomTree::new(RandomSpec::new(8, 6, 3));
    let ab: BTreeSet<Vec<u32>> = leaves_of(Algorithm::AlphaBeta, &t).into_iter().collect();
    let (out, l) = leaves(&t, 64);
    assert_eq!(l.iter().filter(|x| !ab.contains(*x)).count(), 0);
    assert_eq!((out.value, l.len()), (Some(205), 22_424));
    let t = RandomTree::new(RandomSpec::new(8, 8, 1));
    let ab = leaves_of(Algorithm::AlphaBeta, &t);
    assert_eq!(ab.len(), 371_239);
    let ab: BTreeSet<Vec<u32>> = ab.into_iter().collect();
    let mut counts = Vec::new();
    for m in [100, 1_000, 3_000, 30_000] {
        let (out, l) = leaves(&t, m);
        assert_eq!(out.value, ab_value(&t), "--memory {m}");
        assert!(
            l.iter().all(|x| ab.contains(x)),
            "--memory {m}: a leaf alpha-beta skips"
        );
        counts.push(l.len());
    }
    assert_eq!(counts, [371_215, 371_081, 370_907, 317_926]);
}

fn ab_value<G: Game>(t: &G) -> Option<Value> {
    Algorithm::AlphaBeta.search(t, &SearchOptions::default()).unwrap().value
}

/// A comb of `levels`: each level `[rest, leaf]`, the leaves cycling
/// through -3..=3 from the bottom, the bottom leaf 0.
fn comb(levels: usize) -> ExplicitTree {
    let mut s = "[".repeat(levels);
    s.push('0');
    for l in 0..levels {
        s.push_str(&format!(",{}]", (l % 7) as Value - 3));
    }
    ExplicitTree::parse(&s, Role::Max).unwrap()
}

/// GSEARCH on a 100,000-level comb under the tight rules, and on an
/// 8,000-level one under `widest` (issue 63: `widest` compared and copied
/// whole paths per tip it met, cubic in the depth, and still walks the
/// stored tree from the root per leaf, quadratic; the tight rules copied the
/// kept path per leaf). Values and leaf counts, alpha-beta's first.
#[test]
fn gsearch_solves_a_deep_comb_under_every_rule() {
    let run = |levels: usize, rules: &[Select]| {
        let t = comb(levels);
        stockman::run::on_stack(stockman::run::stack_bytes(levels as u64), || {
            let ab = Algorithm::AlphaBeta.search(&t, &SearchOptions::default()).unwrap();
            let mut rows = vec![(ab.value, ab.stats.leaf_evals)];
            for &select in rules {
                let opts = SearchOptions {
                    params: rule(select),
                    ..SearchOptions::default()
                };
                let out = Algorithm::Gsearch.search(&t, &opts).unwrap();
                rows.push((out.value, out.stats.leaf_evals));
            }
            rows
        })
        .unwrap()
    };
    let tight = run(100_000, &[Select::Leftmost, Select::Upper, Select::Lower]);
    assert_eq!(
        tight,
        [
            (Some(1), 100_001),
            (Some(1), 100_001),
            (Some(1), 50_004),
            (Some(1), 50_004)
        ]
    );
    assert_eq!(run(8_000, &[Select::Widest]), [(Some(2), 8_001), (Some(2), 4_002)]);
}

/// The 3,720 random trees of the pinned leaf orders (ties, wide ranges,
/// incremental values, variable branching).
fn pinned_trees() -> impl Iterator<Item = RandomTree> {
    let shapes = (2..=5u32)
        .flat_map(|w| (1..=6u32).map(move |d| (w, d, 25)))
        .chain([(8, 5, 10), (3, 9, 10)]);
    shapes.flat_map(|(width, depth, seeds)| {
        (0..seeds).flat_map(move |seed| {
            (0..3).flat_map(move |model| {
                [false, true].into_iter().map(move |variable| {
                    let mut spec = RandomSpec::new(width, depth, seed);
                    spec.variable = variable;
                    match model {
                        0 => spec.range = (0, 3),
                        1 => spec.range = (-1000, 1000),
                        _ => {
                            spec.model = stockman::ValueModel::Incremental;
                            spec.range = (-3, 3);
                        }
                    }
                    RandomTree::new(spec)
                })
            })
        })
    })
}

/// Issue 63 (wide roots): RecSSS\*'s leaves, and GSEARCH's and RSEARCH's
/// leaves and memory (peak, purges, expansions: RSEARCH's fallback reads
/// the stored count, so when a subtree is dropped decides which tips go
/// depth-first) under every rule, RSEARCH at memories 0, 2, 7 and 30, on
/// the 3,720 trees, pinned as hashes and counts recorded from the searches
/// that scanned every child per step: the O(log w) bookkeeping that
/// replaced the scans must choose the same entries and tips.
#[test]
fn recsss_gsearch_and_rsearch_leaf_orders_and_memory_are_pinned() {
    let rules = [Select::Leftmost, Select::Upper, Select::Lower, Select::Widest];
    let mut runs: Vec<(Algorithm, Params)> = vec![(Algorithm::RecSss, Params::default())];
    runs.extend(rules.iter().map(|&s| (Algorithm::Gsearch, rule(s))));
    for m in [0, 2, 7, 30] {
        runs.extend(rules.iter().map(|&s| (Algorithm::Rsearch, memory(s, m))));
    }
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut leaves_total = 0usize;
    let mut memory_total = [0u64; 3];
    for t in pinned_trees() {
        for (a, params) in &runs {
            let (out, leaves) = run_with(*a, &t, *params);
            leaves_total += leaves.len();
            fold_leaves(&mut hash, &leaves);
            let s = out.stats;
            for (k, x) in [s.max_open, s.open_purged, s.nodes_expanded].into_iter().enumerate() {
                memory_total[k] += x;
                fold_leaves(&mut hash, &[vec![x as u32, (x >> 32) as u32]]);
            }
            let v = out.value.expect("a value");
            fold_leaves(
                &mut hash,
                &[vec![v as u32, out.best_index.map_or(u32::MAX, |i| i as u32)]],
            );
        }
    }
    assert_eq!(
        (leaves_total, memory_total, hash),
        (9_291_398, [1_250_742, 5_736_749, 5_438_877], 0xde1f_2ec1_c606_f1fa)
    );
}

/// Issue 63: a root of 70,000 moves, its best at 65,535 (the issue's tree),
/// took RecSSS\* 26 s and GSEARCH and RSEARCH minutes (every step scanned
/// every child). Value, best move and leaves, alpha-beta's first.
#[test]
fn recsss_gsearch_and_rsearch_solve_a_root_of_70000_moves() {
    let leaves: Vec<String> = (0..70_000)
        .map(|i| if i == 65_535 { "1" } else { "0" }.to_string())
        .collect();
    let t = ExplicitTree::parse(&format!("[{}]", leaves.join(",")), Role::Max).unwrap();
    let mut runs = vec![
        (Algorithm::AlphaBeta, Params::default()),
        (Algorithm::RecSss, Params::default()),
        (Algorithm::Rsearch, Params::default()),
    ];
    runs.extend([Select::Leftmost, Select::Upper, Select::Lower].map(|s| (Algorithm::Gsearch, rule(s))));
    let rows: Vec<_> = runs
        .into_iter()
        .map(|(a, params)| {
            let opts = SearchOptions {
                params,
                ..SearchOptions::default()
            };
            let out = a.search(&t, &opts).unwrap();
            (out.value, out.best_index, out.stats.leaf_evals)
        })
        .collect();
    assert_eq!(rows, vec![(Some(1), Some(65_535), 70_000); 6]);
}
