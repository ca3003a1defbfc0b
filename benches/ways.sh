#!/usr/bin/env bash
# What counting the ways costs a sweep: `analyze` with the ways (the
# default) and with --no-ways, side by side in one run, each three times
# in turn; the median of each. Three cards under all 72 rule sets, and four
# cards under the rules as written and under rank-powers-juxtapose. Needs a
# release build:
#   cargo build --release && bash benches/ways.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/prime-solve
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
median() { sort -n | sed -n 2p; }
run() { # label, then analyze's arguments
  local label=$1
  shift
  local with=() without=()
  for i in 1 2 3; do
    for mode in with without; do
      local extra=()
      [ "$mode" = without ] && extra=(--no-ways)
      local out="$scratch/$mode-$i"
      local start end
      start=$(date +%s.%N)
      "$bin" analyze "$@" "${extra[@]}" --quiet --out "$out" >/dev/null
      end=$(date +%s.%N)
      rm -rf "$out"
      local t
      t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
      if [ "$mode" = with ]; then with+=("$t"); else without+=("$t"); fi
    done
  done
  printf '%-48s with ways %6.2f s   without %6.2f s\n' "$label" \
    "$(printf '%s\n' "${with[@]}" | median)" "$(printf '%s\n' "${without[@]}" | median)"
}
echo "threads: $(nproc)"
run "three cards, all 72 rule sets" --all-rules
run "four cards, five (as written)" --cards 4
run "four cards, rank-powers-juxtapose" --cards 4 --faces rank --powers --juxtapose
