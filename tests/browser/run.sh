#!/usr/bin/env bash
# Browser test of `stockman trace --html`.
#
# For a few small trees and algorithms it builds the page, opens it in headless
# Chromium at #step=end and checks the element with id `result` against
# `stockman solve --format json`; then it opens the page at #selftest, where
# the page clicks through every state with its controls (next, previous,
# first, last, play/pause, the slider, the arrow keys, #step=N) and writes
# PASS or FAIL with the reasons, and any script error, into #selftest.
# Finally it checks that a tree of more than 500 nodes is refused.
#
# Usage: tests/browser/run.sh            (builds the CLI with cargo)
#        STOCKMAN=path/to/stockman CHROMIUM=path/to/chromium tests/browser/run.sh
# Needs Chromium (Debian: apt-get install -y chromium) and Node.js (to read JSON).
# Exits non-zero if any check fails.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$CHROMIUM" ]; then
  echo "error: Chromium not found (apt-get install -y chromium, or set CHROMIUM)" >&2
  exit 1
fi
command -v node >/dev/null || { echo "error: node not found" >&2; exit 1; }
if [ -z "${STOCKMAN:-}" ]; then
  cargo build --quiet -p stockman-cli
  STOCKMAN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/stockman"
fi
[ -x "$STOCKMAN" ] || { echo "error: $STOCKMAN is not an executable" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

# browser URL BUDGET_MS: prints the DOM once the page's scripts ran for BUDGET_MS of virtual time.
browser() {
  local profile
  profile=$(mktemp -d -p "$WORK")
  timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" --window-size=1400,1000 \
    --enable-logging=stderr --v=0 --virtual-time-budget="$2" --dump-dom "$1" 2>"$WORK/chromium.log"
}

# The text of the element with the given id in a dumped DOM (entities decoded).
element() {
  node -e '
    const fs = require("fs");
    const html = fs.readFileSync(0, "utf8");
    const m = new RegExp("<[a-z]+ id=\"" + process.argv[1] + "\"[^>]*>([\\s\\S]*?)</").exec(html);
    if (!m) { process.exit(3); }
    const dec = { amp: "&", lt: "<", gt: ">", quot: "\"", "#39": "\x27" };
    process.stdout.write(m[1].replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => dec[e]));
  ' "$1"
}

# The value `stockman solve --format json` reports for ALGO, or `null`.
solved_value() {
  local algo=$1
  shift
  "$STOCKMAN" solve --format json --algo "$algo" "$@" | node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const j = JSON.parse(s);
      const rows = Array.isArray(j) ? j : (j.rows || j.results || [j]);
      const r = rows.find(r => r.algorithm === process.argv[1]) || rows[0];
      console.log(r.value === null || r.value === undefined ? "null" : r.value);
    });' "$algo"
}

# check NAME ALGO SOURCE-ARGS...
check() {
  local name=$1 algo=$2
  shift 2
  local page="$WORK/$name-$algo.html"
  if ! "$STOCKMAN" trace --algo "$algo" "$@" --html "$page" 2>"$WORK/trace.err"; then
    fail "$name $algo: trace --html failed: $(cat "$WORK/trace.err")"
    return
  fi
  local want got
  want=$(solved_value "$algo" "$@")
  got=$(browser "file://$page#step=end" 5000 | element result) || got="(no result element)"
  if [ "$want" = "null" ]; then
    # BNS proves a best move and a bound, not a value.
    case "$got" in "best move "*) ;; *) fail "$name $algo: result '$got', expected a best move and a bound"; return ;; esac
  elif [ "$got" != "$want" ]; then
    fail "$name $algo: at #step=end the result is '$got', solve says '$want'"
    return
  fi
  local dom status
  dom=$(browser "file://$page#selftest" 600000)
  status=$(printf '%s' "$dom" | element selftest) || status="(no selftest element: the page's script did not run)"
  if grep -q 'Uncaught' "$WORK/chromium.log"; then
    fail "$name $algo: script error: $(grep 'Uncaught' "$WORK/chromium.log" | head -3)"
  elif [[ "$status" != PASS* ]]; then
    fail "$name $algo: self-test: $status"
  else
    ok "$name $algo: result $got; self-test $status"
  fi
}

start=$(date +%s)
check textbook sss --tree examples/textbook.tree
check textbook dual --tree examples/textbook.tree
check plaat mt-sss --tree examples/plaat.tree
check plaat mt-dual --tree examples/plaat.tree
check plaat mtdf --tree examples/plaat.tree
check random-iid sss --random width=3,depth=4,seed=7
check random-inc dual --random width=3,depth=4,seed=3,model=incremental
check random-ordered mt-sss --random width=3,depth=4,seed=5,order=0.8
check random-alphabeta alphabeta --random width=3,depth=3,seed=6
check random-min-root sss --random width=2,depth=5,seed=2 --root min
check random-bns bns --random width=3,depth=3,seed=4
check random-364 sss --random width=3,depth=5,seed=11
check textbook sss2 --tree examples/textbook.tree
check random-iid sss2 --random width=3,depth=4,seed=7
check textbook gsearch --tree examples/textbook.tree
check random-iid gsearch --random width=3,depth=4,seed=7
check random-inc rsearch --random width=3,depth=4,seed=3,model=incremental

# fitcheck NAME SOURCE-ARGS...: at 1400x1000 every node of the tree lies inside its panel.
fitcheck() {
  local name=$1
  shift
  local page="$WORK/fit-$name.html"
  "$STOCKMAN" trace "$@" --html "$page" 2>/dev/null || { fail "fit $name: trace --html failed"; return; }
  local got
  got=$(browser "file://$page#step=end&fitcheck" 5000 | element fitcheck) || got="(no fitcheck element)"
  if [[ "$got" == PASS* ]]; then ok "fit $name: $got"; else fail "fit $name: $got"; fi
}

# compare NAME ALGOS SOURCE-ARGS...: the side-by-side page of several
# searches: at #step=end, #result holds every search's value as solve
# reports it, and every tree fits its panel.
compare() {
  local name=$1 algos=$2
  shift 2
  local page="$WORK/compare-$name.html"
  if ! "$STOCKMAN" trace --algo "$algos" "$@" --html "$page" 2>"$WORK/trace.err"; then
    fail "compare $name: trace --html failed: $(cat "$WORK/trace.err")"
    return
  fi
  local want="" a v
  IFS=, read -ra list <<<"$algos"
  for a in "${list[@]}"; do
    v=$(solved_value "$a" "$@")
    want="${want:+$want, }$a: $v"
  done
  local got
  got=$(browser "file://$page#step=end" 5000 | element result) || got="(no result element)"
  if [ "$got" != "$want" ]; then
    fail "compare $name: at #step=end the result is '$got', solve says '$want'"
    return
  fi
  local fit
  fit=$(browser "file://$page#step=end&fitcheck" 5000 | element fitcheck) || fit="(no fitcheck element)"
  if grep -q 'Uncaught' "$WORK/chromium.log"; then
    fail "compare $name: script error: $(grep 'Uncaught' "$WORK/chromium.log" | head -3)"
  elif [[ "$fit" != PASS* ]]; then
    fail "compare $name: $fit"
  else
    ok "compare $name: result $got; $fit"
  fi
}

fitcheck plaat-16-leaves --algo sss --tree examples/plaat.tree

# readcheck NAME STEP SOURCE-ARGS...: a tree too wide to read whole follows
# the step: at #step=STEP its node is inside the panel and every node is
# drawn at least 18 px wide (a whole 364-node tree would be a strip of 4 px nodes).
readcheck() {
  local name=$1 step=$2
  shift 2
  local page="$WORK/read-$name.html"
  "$STOCKMAN" trace "$@" --html "$page" 2>/dev/null || { fail "read $name: trace --html failed"; return; }
  local got
  got=$(browser "file://$page#step=$step&readcheck" 5000 | element readcheck) || got="(no readcheck element)"
  if [[ "$got" == PASS* ]]; then ok "read $name: $got"; else fail "read $name: $got"; fi
}
readcheck random-211-nodes 0 --algo mt-sss --random width=14,depth=2,seed=3
readcheck random-211-nodes-end end --algo mt-sss --random width=14,depth=2,seed=3
readcheck random-364-nodes-sss 40 --algo sss --random width=3,depth=5,seed=11
readcheck random-364-nodes-sss-end end --algo sss --random width=3,depth=5,seed=11
readcheck random-364-nodes 25 --algo alphabeta --random width=3,depth=5,seed=11
compare plaat alphabeta,sss --tree examples/plaat.tree
compare textbook alphabeta,sss,dual,mt-sss --tree examples/textbook.tree
compare plaat-sss2 alphabeta,sss,sss2 --tree examples/plaat.tree
compare random-ordered alphabeta,negascout,sss --random width=3,depth=4,seed=5,order=0.8
compare plaat-gsearch alphabeta,sss,gsearch,rsearch --tree examples/plaat.tree
compare random-341-nodes alphabeta,mt-sss --random width=4,depth=4,seed=3

# compareread NAME STEP ALGOS SOURCE-ARGS...: the side-by-side page of a
# tree too wide to read whole (341 nodes would be panels 20 px high) follows
# the step: at #step=STEP each search's leaf is inside its panel and drawn at
# least 18 px wide.
compareread() {
  local name=$1 step=$2 algos=$3
  shift 3
  local page="$WORK/compare-read-$name.html"
  "$STOCKMAN" trace --algo "$algos" "$@" --html "$page" 2>/dev/null || { fail "compare read $name: trace --html failed"; return; }
  local got
  got=$(browser "file://$page#step=$step&readcheck" 5000 | element readcheck) || got="(no readcheck element)"
  if [[ "$got" == PASS* ]]; then ok "compare read $name: $got"; else fail "compare read $name: $got"; fi
}
compareread random-341-nodes 0 alphabeta,mt-sss --random width=4,depth=4,seed=3
compareread random-341-nodes-30 30 alphabeta,mt-sss --random width=4,depth=4,seed=3
compareread random-341-nodes-end end alphabeta,mt-sss --random width=4,depth=4,seed=3

# stochcompare NAME ALGOS SOURCE-ARGS...: the side-by-side page on a tree of
# Bernoulli means. At #step=end #result names, for each stochastic search,
# the move (or verdict) and the samples that `solve` reports for the same
# seed, and for each deterministic one the tree's value (the minimax of the
# means, as solve's rows give it); every tree fits its panel, and a step in
# the middle shows each search's leaf readably.
stochcompare() {
  local name=$1 algos=$2
  shift 2
  local page="$WORK/stoch-$name.html"
  if ! "$STOCKMAN" trace --algo "$algos" "$@" --html "$page" 2>"$WORK/trace.err"; then
    fail "stochastic compare $name: trace --html failed: $(cat "$WORK/trace.err")"
    return
  fi
  local got rows
  got=$(browser "file://$page#step=end" 5000 | element result) || got="(no result element)"
  local samplers=() a
  IFS=, read -ra list <<<"$algos"
  for a in "${list[@]}"; do
    case "$a" in lucb-mcts|ugape-mcts|uniform|murphy|bns-murphy) samplers+=("$a") ;; esac
  done
  rows=$("$STOCKMAN" solve --format json --algo "$(IFS=,; echo "${samplers[*]}")" "$@")
  local verdict
  verdict=$(node -e '
    const [got, algos, rowsJson] = process.argv.slice(1);
    const rows = JSON.parse(rowsJson), bad = [];
    const value = rows[0].value;
    for (const a of algos.split(",")) {
      const r = rows.find(r => r.algorithm === a);
      let want;
      if (r) {
        const answer = r.best_move !== null ? "best move " + r.best_move : r.verdict;
        want = a + ": " + answer + " (" + (r.unsure ? "the budget stopped it" : "confident") + ", " + r.samples + " samples)";
        if (!got.includes(want)) bad.push("want \"" + want + "\"");
      } else {
        const m = new RegExp("(?:^|, )" + a + ": ([0-9.]+)").exec(got);
        if (!m || Math.abs(Number(m[1]) - value) > 1e-9) bad.push(a + " should show the value " + value);
      }
    }
    console.log(bad.length ? "FAIL " + bad.join("; ") : "PASS");
  ' "$got" "$algos" "$rows")
  local fit read
  fit=$(browser "file://$page#step=end&fitcheck" 5000 | element fitcheck) || fit="(no fitcheck element)"
  read=$(browser "file://$page#step=25&readcheck" 5000 | element readcheck) || read="(no readcheck element)"
  if grep -q 'Uncaught' "$WORK/chromium.log"; then
    fail "stochastic compare $name: script error: $(grep 'Uncaught' "$WORK/chromium.log" | head -3)"
  elif [[ "$verdict" != PASS* ]]; then
    fail "stochastic compare $name: result '$got': $verdict"
  elif [[ "$fit" != PASS* || "$read" != PASS* ]]; then
    fail "stochastic compare $name: $fit; $read"
  else
    ok "stochastic compare $name: result $got; $fit; $read"
  fi
}
printf '[[0.2, 0.3], [0.7, 0.8], [0.4, 0.9]]\n' >"$WORK/means.tree"
stochcompare means-bns bns-murphy,lucb-mcts,alphabeta,sss --tree "$WORK/means.tree"
stochcompare random-all lucb-mcts,ugape-mcts,uniform,bns-murphy,alphabeta,sss --random width=3,depth=2,seed=1,model=bernoulli --epsilon 0.1
stochcompare murphy-min-root murphy,alphabeta --random width=4,depth=1,seed=2,model=bernoulli --root min --threshold 0.5

# A tree too large to draw is refused with a clear error.
if "$STOCKMAN" trace --algo sss --random width=3,depth=6,seed=1 --html "$WORK/big.html" 2>"$WORK/big.err"; then
  fail "a 1093-node tree was drawn instead of refused"
elif ! grep -q "more than 500 nodes" "$WORK/big.err" || [ -e "$WORK/big.html" ]; then
  fail "the refusal of a 1093-node tree is unclear: $(cat "$WORK/big.err")"
else
  ok "a 1093-node tree is refused: $(cat "$WORK/big.err")"
fi

echo "browser tests took $(($(date +%s) - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
