#!/bin/sh
# Proofs per second through 1, 2 and 3 daemons (bin/cuzk serve on 127.0.0.1, same settings each)
# with one client balancing them (`workload --server HOST:PORT,HOST:PORT,...`: gRPC's
# weighted_round_robin on the daemons' ORCA load reports), and the cost of the balancing itself:
# one daemon reached directly (its address alone: one connection, no load reports) against the same
# daemon reached as a list of one (balanced). Rounds alternate the cases; every case proves
# --warmup-jobs first, untimed; the client runs at nice 19. On this machine all the daemons share
# its cores: the figures are the balancing's overhead and the jobs' spread, not a speed-up.
#   jmh/farm-bench.sh circuit.zkey witness.wtns [jobs] [in-flight] [rounds]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
zkey=$1 wtns=$2 jobs=${3:-300} inflight=${4:-12} rounds=${5:-3}
cuzk="$root/bin/cuzk"
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || :; done
  for p in $pids; do wait "$p" 2>/dev/null || :; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir "$work/keys"
ln "$zkey" "$work/keys/bench.zkey" 2>/dev/null || cp "$zkey" "$work/keys/bench.zkey"
for n in 1 2 3; do
  "$cuzk" serve --keys "$work/keys" --listen 127.0.0.1:0 --port-file "$work/port$n" --name "daemon-$n" >"$work/serve$n.log" 2>&1 &
  pids="$pids $!"
done
for n in 1 2 3; do
  i=0
  while [ ! -s "$work/port$n" ]; do
    i=$((i + 1))
    if [ $i -gt 900 ]; then cat "$work/serve$n.log" >&2; echo "daemon $n did not start" >&2; exit 3; fi
    sleep 0.1
  done
done
d1=127.0.0.1:$(cat "$work/port1") d2=127.0.0.1:$(cat "$work/port2") d3=127.0.0.1:$(cat "$work/port3")
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
spread() { sed -n 's/.*"jobsByDaemon":{\([^}]*\)}.*/\1/p' | tr -d '"'; }
common="--zkey bench --wtns $wtns --jobs $jobs --in-flight $inflight --warmup-jobs 6 --json"
r=1
while [ $r -le "$rounds" ]; do
  for case in direct one two three; do
    case $case in
      direct) target=$d1 ;;
      one) target="$d1," ;;
      two) target="$d1,$d2" ;;
      three) target="$d1,$d2,$d3" ;;
    esac
    # shellcheck disable=SC2086
    out=$(nice -n 19 "$cuzk" workload --server "$target" $common)
    echo "round $r $case: $(echo "$out" | field proofsPerSecond) proofs/s, job latency p50 $(echo "$out" | field p50) ms," \
      "p99 $(echo "$out" | field p99) ms; jobs by daemon: $(echo "$out" | spread); placed again: $(echo "$out" | field jobsPlacedAgain)"
  done
  r=$((r + 1))
done
