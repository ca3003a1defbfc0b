#!/usr/bin/env bash
# Load benchmark of `prime-solve serve`, loopback only and bounded in
# time: three-card queries over keep-alive connections with wrk, alone;
# then for long enough to pass a million requests, with the server's
# resident memory sampled every five seconds; then beside six-card
# searches, one after another. Needs wrk (Debian's `wrk`) and a release
# build:
#   cargo build --release && bash benches/serve.sh
# SECONDS_EACH (default 10) sets the first and last runs, LONG (default
# 45) the long one.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/prime-solve
port=${PORT:-18093}
seconds=${SECONDS_EACH:-10}
long=${LONG:-45}
"$bin" serve --addr "127.0.0.1:$port" >/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 0.5
rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$server/status"; }
url="http://127.0.0.1:$port/api/v1/query?cards=4,6,8"
summary() { grep -E "requests in|Requests/sec|^ +(50|90|99)%"; }
echo "resident at start: $(rss)"
echo "== three-card queries alone, 16 connections, ${seconds} s"
wrk -t2 -c16 -d"${seconds}s" --latency "$url" | summary
echo "resident after: $(rss)"
echo "== three-card queries for ${long} s, resident memory every 5 s"
wrk -t2 -c16 -d"${long}s" --latency "$url" > "${TMPDIR:-/tmp}/prime-solve-wrk-long.txt" &
load=$!
samples=""
while kill -0 "$load" 2>/dev/null; do
  samples="$samples $(awk '/VmRSS/ {print $2}' "/proc/$server/status")"
  sleep 5
done
wait "$load" || true
summary < "${TMPDIR:-/tmp}/prime-solve-wrk-long.txt"
echo "resident (kB) every 5 s:$samples"
echo "== three-card queries beside six-card searches, one after another, ${seconds} s"
heavy="http://127.0.0.1:$port/api/v1/query?cards=1,2,3,5,7,9&functions=tri&high-primes=1"
(
  end=$((SECONDS + seconds))
  n=0
  while [ "$SECONDS" -lt "$end" ]; do
    curl -s -o /dev/null "$heavy"
    n=$((n + 1))
  done
  echo "six-card searches answered: $n"
) &
searches=$!
wrk -t2 -c16 -d"${seconds}s" --latency "$url" | summary
wait "$searches"
echo "resident after: $(rss)"
