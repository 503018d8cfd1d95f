"""stockman.sample: the stochastic searches on Bernoulli trees (issue 50)."""

import pytest

import stockman


def test_every_search_finds_a_good_move_and_reports_its_samples():
    rows = stockman.sample("width=3,depth=2,seed=1,model=bernoulli", epsilon=0.1)
    assert [r["algorithm"] for r in rows] == ["lucb-mcts", "ugape-mcts", "uniform", "bns-murphy"]
    for r in rows:
        assert r["correct"] is True
        assert sum(r["leaf_samples"]) == r["samples"]
        assert r["runs"] == 1 and r["wrong"] == 0
    # The same seed, the same samples; the CLI's rows are the same dicts.
    assert rows == stockman.sample("width=3,depth=2,seed=1,model=bernoulli", epsilon=0.1)
    assert stockman.SAMPLERS == ["lucb-mcts", "ugape-mcts", "uniform", "murphy", "bns-murphy"]


def test_runs_give_an_error_rate_and_best_arm_beats_uniform():
    lucb, uniform = stockman.sample(
        "width=3,depth=2,seed=1,model=bernoulli", "lucb-mcts,uniform", epsilon=0.2, runs=30
    )
    assert lucb["runs"] == 30 and lucb["wrong"] == 0 and lucb["error_rate"] == 0.0
    assert lucb["best_move"] is None and lucb["samples_min"] <= lucb["samples"] <= lucb["samples_max"]
    assert lucb["samples"] < uniform["samples"]


def test_tree_text_threshold_test_and_root():
    (row,) = stockman.sample("[0.3, 0.6, 0.7]", threshold=0.5, root="min")
    assert row["algorithm"] == "murphy" and row["verdict"] == "below" and row["correct"] is True
    (row,) = stockman.sample("[[0.2, 0.3], [0.7, 0.8]]", ["bns-murphy"], sampling="lcb")
    assert row["best_move"] == 1 and row["value"] == 0.7


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(tree="[[0.5, 1.5]]"), ValueError, "tree: line 1, column 8: leaf `1.5` is not a probability"),
        (dict(tree="width=2,depth=2"), ValueError, "add `model=bernoulli`"),
        (dict(tree="[0.5, 0.6]", delta=1.5), ValueError, "delta: "),
        (dict(tree="[0.5, 0.6]", epsilon=-1), ValueError, "epsilon: "),
        (dict(tree="[0.5, 0.6]", algorithms="murphy"), ValueError, "threshold: "),
        (dict(tree="[0.5, 0.6]", algorithms="sss"), ValueError, "algorithms: unknown stochastic search `sss`"),
        (dict(tree="[0.5, 0.6]", rate="fast"), ValueError, "rate: "),
        (dict(tree="[0.5, 0.6]", sampling="greedy"), ValueError, "sampling: "),
        (dict(tree="[0.5, 0.6]", interval="wide"), ValueError, "interval: "),
        (dict(tree="[0.5, 0.6]", runs=0), ValueError, "runs must be between"),
        (dict(tree=[0.5, 0.6]), TypeError, "tree must be a str"),
        (dict(tree="[0.5, 0.6]", delta="0.1"), TypeError, "delta must be a number"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, error, words):
    with pytest.raises(error, match=None) as e:
        stockman.sample(**kwargs)
    assert words in str(e.value)


def test_a_root_that_is_a_leaf_has_no_move_but_can_be_tested():
    with pytest.raises(ValueError) as e:
        stockman.sample("0.5")
    assert "tree: the root is a leaf" in str(e.value)
    (row,) = stockman.sample("0.5", threshold=0.3)
    assert row["verdict"] == "above"


def test_a_traced_run_tells_every_sample_and_shows_the_comparison_page():
    spec = "width=3,depth=2,seed=1,model=bernoulli"
    (row,) = stockman.sample(spec, "lucb-mcts", epsilon=0.1, seed=4)
    t = stockman.sample_trace(spec, "lucb-mcts", epsilon=0.1, seed=4)
    assert isinstance(t, stockman.SampleTrace)
    assert t["best_move"] == row["best_move"] and t["samples"] == row["samples"]
    assert t["leaf_samples"] == row["leaf_samples"] and t["value"] == row["value"]
    samples = [e for e in t.events if e["event"] == "sample"]
    assert len(samples) == t["samples"] and all(e["one"] in (True, False) for e in samples)
    rounds = [e for e in t.events if e["event"] == "round"]
    assert len(rounds) == t["rounds"] + 1 and rounds[-1]["best"] == t["best_move"]
    page = t.html()
    assert page.startswith("<!doctype html>") and '"stochastic":true' in page
    assert '"algorithm":"alphabeta"' in page and '"algorithm":"sss"' in page
    assert "<iframe" in t._repr_html_()
    # Murphy's test, alone on its page.
    m = stockman.sample_trace("[0.3, 0.6, 0.7]", "murphy", threshold=0.5, root="min", compare=None)
    assert m["verdict"] == "below" and [e["event"] for e in m.events][0] == "test"
    assert '"algorithm":"alphabeta"' not in m.html()


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(algorithm="sss"), ValueError, "algorithm: unknown stochastic search `sss`"),
        (dict(algorithm="lucb-mcts", delta=2.0), ValueError, "delta: "),
        (dict(algorithm="murphy"), ValueError, "threshold: "),
        (dict(algorithm=3), TypeError, "algorithm must be"),
    ],
)
def test_sample_trace_names_bad_arguments(kwargs, error, words):
    with pytest.raises(error) as e:
        stockman.sample_trace("[0.5, 0.6]", **kwargs)
    assert words in str(e.value)


def test_a_comparison_page_names_an_unknown_deterministic_search():
    t = stockman.sample_trace("[0.5, 0.6]", "lucb-mcts", compare="best")
    with pytest.raises(ValueError) as e:
        t.html()
    assert "compare: unknown algorithm `best`" in str(e.value)
