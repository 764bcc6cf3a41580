#!/usr/bin/env bash
# Same machine, same run: a single-threaded G1 MSM in cuzk (JMH) against snarkjs's engine
# (ffjavascript, WebAssembly) and @noble/curves, on the same sizes. The machine's speed drifts, so
# the two are run in alternating rounds and each round gives one ratio; the median ratio is printed
# with every round's figures.
# Usage: jmh/compare-js.sh [curve: bls12-381|bn254] [logSize ...]   (defaults: bls12-381 16)
# Needs: mvn -DskipTests package, and npm install in tests/node.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
curve=${1:-bls12-381}; shift || true
sizes=("${@:-16}")
rounds=${ROUNDS:-3}
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jcurve=$(echo "$curve" | tr 'a-z-' 'A-Z_')
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for k in "${sizes[@]}"; do
  for r in $(seq 1 "$rounds"); do
    "$java" --enable-native-access=ALL-UNNAMED -jar "$root/jmh/target/benchmarks.jar" MsmBenchmark \
      -p curve="$jcurve" -p group=G1 -p threads=1 -p logSize="$k" -wi 1 -i 2 -w 2s -r 2s -f 1 \
      -rf json -rff "$out/jmh-$k-$r.json" >"$out/jmh-$k-$r.log" 2>&1
    nobleRuns=0; [ "$r" = 1 ] && nobleRuns=1
    (cd "$root/tests/node" && node bench_msm.mjs "$curve" "$k" 2 "$nobleRuns") >"$out/js-$k-$r.json"
  done
done
node - "$out" "$curve" "$rounds" "${sizes[@]}" <<'JS'
const fs = require('fs');
const [dir, curve, rounds, ...sizes] = process.argv.slice(2);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
console.log(`G1 MSM, ${curve}, one thread each; per round: cuzk ms (JMH mean), ffjavascript ms (median of 2)`);
for (const k of sizes) {
  const ratios = [], cells = [];
  let noble = null, agree = null;
  for (let r = 1; r <= Number(rounds); r++) {
    const cuzk = JSON.parse(fs.readFileSync(`${dir}/jmh-${k}-${r}.json`))[0].primaryMetric.score;
    const js = JSON.parse(fs.readFileSync(`${dir}/js-${k}-${r}.json`));
    const ff = median(js.ffjavascriptMs);
    ratios.push(ff / cuzk);
    cells.push(`${cuzk.toFixed(0)}/${ff.toFixed(0)}`);
    if (js.nobleMs.length) { noble = js.nobleMs[0] / cuzk; agree = js.resultsAgree; }
  }
  console.log(`2^${k}: rounds ${cells.join(', ')}  ffjavascript/cuzk median ${median(ratios).toFixed(2)}x`
    + (noble ? `, noble/cuzk ${noble.toFixed(1)}x (round 1)` : '') + (agree === false ? '  (ffjavascript and noble disagree!)' : ''));
}
JS
