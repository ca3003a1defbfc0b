#!/usr/bin/env bash
# The tests. `./test.sh` is the quick run: every test but those in a
# module named `full` (cargo test's `--skip full::`). `./test.sh --full`
# is what CI runs: every test, then the quicker targets again in a debug
# build, where every integer overflow panics. Either way it first runs
# `npm ci` in tests/browser when node_modules is missing or older than the
# lockfile. A test whose tool is missing fails and names it, unless
# PRIME_SOLVE_SKIP names it (browser, tmux, pdf, root; refused under
# CI=true); the run then ends with one line saying what was skipped.
set -euo pipefail
cd "$(dirname "$0")"

full=false
case "${1-}" in
  "") ;;
  --full) full=true ;;
  -h | --help)
    echo "usage: ./test.sh [--full]   (the quick run, or everything CI runs)"
    exit 0
    ;;
  *)
    echo "usage: ./test.sh [--full]" >&2
    exit 2
    ;;
esac
[ $# -le 1 ] || { echo "usage: ./test.sh [--full]" >&2; exit 2; }

if [ "${CI-}" = true ] && [ -n "${PRIME_SOLVE_SKIP-}" ]; then
  echo "test.sh: PRIME_SOLVE_SKIP=$PRIME_SOLVE_SKIP is refused under CI=true: CI runs every test" >&2
  exit 2
fi

# playwright-core for the browser tests, from the committed lockfile.
browser=tests/browser
if [ ! -e "$browser/node_modules/.package-lock.json" ] ||
  [ "$browser/package-lock.json" -nt "$browser/node_modules/.package-lock.json" ]; then
  if ! command -v npm >/dev/null; then
    echo "test.sh: npm is missing (apt-get install npm): the browser tests will fail and say so"
  elif ! (cd "$browser" && npm ci --silent --no-audit --no-fund); then
    echo "test.sh: npm ci failed in $browser: the browser tests will fail and say so"
  fi
fi

# Each skip is a line of `common::require` (tests/common/tools.rs): the
# tool's word, what is missing, the test, by tabs.
log="${CARGO_TARGET_DIR:-target}/tmp/skipped.txt"
rm -f "$log"
summary() {
  [ -s "$log" ] || return 0
  awk -F"\t" -v skip="${PRIME_SOLVE_SKIP-}" '
    { n++; if (!($1 SUBSEP $2 in count)) order[++k] = $1 SUBSEP $2; count[$1 SUBSEP $2]++ }
    END {
      line = sprintf("skipped %d test%s (PRIME_SOLVE_SKIP=%s):", n, n == 1 ? "" : "s", skip)
      for (i = 1; i <= k; i++) {
        split(order[i], part, SUBSEP)
        c = count[order[i]]
        line = line sprintf("%s %s, %d test%s (%s)", i > 1 ? ";" : "", part[1], c, c == 1 ? "" : "s", part[2])
      }
      print line
    }' "$log"
}
trap summary EXIT

if $full; then
  cargo test --release --locked
  cargo test --locked --lib --test engine --test props --test cli --test simulate
else
  cargo test --release --locked -- --skip full::
fi
