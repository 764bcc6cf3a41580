#!/bin/sh
# Proofs per second through the daemon (bin/cuzk serve on 127.0.0.1, the jobs sent over gRPC by
# `workload --server`) against the engine in the workload's own process, same key, witnesses, jobs
# and engine settings, in alternating rounds; both sides prove --warmup-jobs first, untimed. The
# client runs at the lowest CPU priority (nice 19): on a farm it is another machine, and here it
# would otherwise take its share of the cores the daemon proves on.
#   jmh/daemon-vs-engine.sh circuit.zkey witness.wtns [jobs] [partitions] [rounds]
# Prints each round's figures, then the mean ratio daemon / in-process and the daemon's job latency.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
zkey=$1 wtns=$2 jobs=${3:-20} parts=${4:-10} rounds=${5:-3}
cuzk="$root/bin/cuzk"
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || :; wait "$pid" 2>/dev/null || :; fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir "$work/keys"
ln "$zkey" "$work/keys/bench.zkey" 2>/dev/null || cp "$zkey" "$work/keys/bench.zkey"
"$cuzk" serve --keys "$work/keys" --listen 127.0.0.1:0 --port-file "$work/port" >"$work/serve.log" 2>&1 &
pid=$!
i=0
while [ ! -f "$work/port" ]; do
  i=$((i + 1))
  if [ $i -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then cat "$work/serve.log" >&2; echo "the daemon did not start" >&2; exit 3; fi
  sleep 0.1
done
server=127.0.0.1:$(cat "$work/port")
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
common="--wtns $wtns --jobs $jobs --partitions $parts --warmup-jobs 2 --json"
sum=0
r=1
while [ $r -le "$rounds" ]; do
  # shellcheck disable=SC2086
  local_pps=$("$cuzk" workload --zkey "$zkey" $common | field proofsPerSecond)
  # shellcheck disable=SC2086
  remote=$(nice -n 19 "$cuzk" workload --server "$server" --zkey bench $common)
  remote_pps=$(echo "$remote" | field proofsPerSecond)
  p50=$(echo "$remote" | sed -n 's/.*"p50":\([0-9.]*\).*/\1/p')
  p99=$(echo "$remote" | sed -n 's/.*"p99":\([0-9.]*\).*/\1/p')
  ratio=$(awk "BEGIN { printf \"%.4f\", $remote_pps / $local_pps }")
  echo "round $r: in-process $local_pps proofs/s, daemon $remote_pps proofs/s (ratio $ratio); daemon job latency p50 $p50 ms, p99 $p99 ms"
  sum=$(awk "BEGIN { print $sum + $ratio }")
  r=$((r + 1))
done
awk "BEGIN { printf \"mean ratio daemon / in-process over %d rounds: %.4f\n\", $rounds, $sum / $rounds }"
