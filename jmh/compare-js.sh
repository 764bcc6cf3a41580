#!/usr/bin/env bash
# Same machine, same run: a single-threaded G1 MSM in cuzk (JMH) against snarkjs's engine
# (ffjavascript, WebAssembly) and @noble/curves, on the same sizes; prints the ratios.
# Usage: jmh/compare-js.sh [curve: bls12-381|bn254] [logSize ...]   (defaults: bls12-381 16)
# Needs: mvn -DskipTests package, and npm install in tests/node.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
curve=${1:-bls12-381}; shift || true
sizes=("${@:-16}")
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jcurve=$(echo "$curve" | tr 'a-z-' 'A-Z_')
out=$(mktemp -d)
for k in "${sizes[@]}"; do
  "$java" --enable-native-access=ALL-UNNAMED -jar "$root/jmh/target/benchmarks.jar" MsmBenchmark \
    -p curve="$jcurve" -p group=G1 -p threads=1 -p logSize="$k" -wi 1 -i 3 -w 2s -r 3s -f 1 \
    -rf json -rff "$out/jmh-$k.json" >"$out/jmh-$k.log"
  (cd "$root/tests/node" && node bench_msm.mjs "$curve" "$k" 3) >"$out/js-$k.json"
done
node - "$out" "$curve" "${sizes[@]}" <<'JS'
const fs = require('fs');
const [dir, curve, ...sizes] = process.argv.slice(2);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
console.log(`G1 MSM, ${curve}, one thread each (median ms; ratio = theirs / cuzk)`);
console.log('size    cuzk     ffjavascript  ratio   noble       ratio');
for (const k of sizes) {
  const jmh = JSON.parse(fs.readFileSync(`${dir}/jmh-${k}.json`))[0];
  const cuzk = median(jmh.primaryMetric.rawData.flat());
  const js = JSON.parse(fs.readFileSync(`${dir}/js-${k}.json`));
  const ff = median(js.ffjavascriptMs), nb = median(js.nobleMs);
  console.log(`2^${k}`.padEnd(8) + cuzk.toFixed(1).padStart(7) + ff.toFixed(1).padStart(14) + (ff / cuzk).toFixed(2).padStart(8) + 'x'
    + nb.toFixed(1).padStart(11) + (nb / cuzk).toFixed(2).padStart(9) + 'x' + (js.resultsAgree ? '' : '  (ffjavascript and noble disagree!)'));
}
JS
rm -rf "$out"
