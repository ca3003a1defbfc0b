#!/usr/bin/env bash
# How soon `play`'s bots call: for each level, 200 scripted games (seeds 1
# to 200) against two bots of that level, the person never replying, and
# the time of the first bot call of each combination (combinations where
# no bot calls are left out); the median and the 10th percentile. Needs a
# release build and jq:
#   cargo build --release && bash benches/bots.sh [LEVEL ...]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/prime-solve
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# One reply a combination, after the combination has closed: never made.
yes '60000 pass' | head -n 60 >"$scratch/script" || true
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(beginner casual steady novice club expert)
echo "| level | combinations | median first call | 10th percentile |"
echo "|---|---|---|---|"
for level in "${levels[@]}"; do
  for seed in $(seq 1 200); do
    "$bin" play --seed "$seed" --bots "$level,$level" --script "$scratch/script" --format json |
      jq -r --arg s "$seed" 'select(.event == "call") | "\($s) \(.turn) \(.ms)"'
  done | sort -k1,1n -k2,2n -k3,3n | awk '!seen[$1 " " $2]++ { print $3 }' | sort -n >"$scratch/$level"
  awk -v level="$level" '{ t[NR] = $1 } END {
    printf "| `%s` | %d | %.1f s | %.1f s |\n", level, NR,
      t[int((NR + 1) / 2)] / 1000, t[int(NR / 10) + 1] / 1000 }' "$scratch/$level"
done
