#!/usr/bin/env bash
# Same machine, same run: verification and witness calculation against snarkjs (0.7.6, from
# tests/node). First the in-process figures (JMH VerifyBenchmark: one proof read and verified, a
# batch of 64, per curve), then the whole commands the way users run them, in alternating rounds
# (the machine's speed drifts): `bin/cuzk verify` (its native verifier, cuzk_verify) and the Java
# command it falls back to (CUZK_VERIFY=java) against `snarkjs groth16 verify`, and
# `bin/cuzk wtns calculate` against `snarkjs wtns calculate`. Prints each round and the medians.
# A circuit's first wtns run compiles it into the cache of compiled circuits (~/.cache/cuzk/wasm):
# that run is timed once on its own (with the cache off), then one untimed run fills the cache and
# the rounds time the later runs, as a user who calculates many witnesses of a circuit sees them.
# Usage: jmh/verify-vs-snarkjs.sh <verification_key.json> <public.json> <proof.json> <circuit.wasm> <input.json> [rounds=5]
# Needs: mvn -DskipTests package (jmh/target/benchmarks.jar), and npm install in tests/node.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vk=${1:?verification_key.json}; pub=${2:?public.json}; proof=${3:?proof.json}
wasm=${4:?circuit.wasm}; input=${5:?input.json}; rounds=${6:-5}
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
snarkjs="node $root/tests/node/node_modules/snarkjs/build/cli.cjs"
now() { date +%s%N; }
"$java" --enable-native-access=ALL-UNNAMED -jar "$root/jmh/target/benchmarks.jar" VerifyBenchmark -wi 2 -i 3 -w 2s -r 3s -f 1 \
  | grep -E '^(Benchmark|VerifyBenchmark)'
t0=$(now); CUZK_JAVA_OPTS="${CUZK_JAVA_OPTS:-} -Dcuzk.witness.cache=none" "$root/bin/cuzk" wtns calculate "$wasm" "$input" "$out/c.wtns"; t1=$(now)
echo "wtns calculate, a circuit's first run (it compiles; cache off): $(( (t1 - t0) / 1000000 )) ms"
"$root/bin/cuzk" wtns calculate "$wasm" "$input" "$out/c.wtns" # fills the cache of compiled circuits
cv=(); jv=(); sv=(); cw=(); sw=()
for r in $(seq 1 "$rounds"); do
  t0=$(now); "$root/bin/cuzk" verify "$vk" "$pub" "$proof" >/dev/null; t1=$(now)
  cv+=($(( (t1 - t0) / 1000000 )))
  CUZK_VERIFY=java "$root/bin/cuzk" verify "$vk" "$pub" "$proof" >/dev/null; tj=$(now)
  jv+=($(( (tj - t1) / 1000000 ))); t1=$(now)
  $snarkjs groth16 verify "$vk" "$pub" "$proof" >/dev/null; t2=$(now)
  "$root/bin/cuzk" wtns calculate "$wasm" "$input" "$out/c.wtns"; t3=$(now)
  $snarkjs wtns calculate "$wasm" "$input" "$out/s.wtns"; t4=$(now)
  cmp -s "$out/c.wtns" "$out/s.wtns" || { echo "the witnesses differ" >&2; exit 1; }
  sv+=($(( (t2 - t1) / 1000000 )))
  cw+=($(( (t3 - t2) / 1000000 ))); sw+=($(( (t4 - t3) / 1000000 )))
done
node - "${cv[*]}" "${sv[*]}" "${cw[*]}" "${sw[*]}" "${jv[*]}" <<'JS'
const [a, b, c, d, j] = process.argv.slice(2).map((s) => s.split(' ').map(Number));
const median = (x) => [...x].sort((u, v) => u - v)[Math.floor(x.length / 2)];
// a native verify can take under a millisecond's resolution: at least 1 ms
console.log(`verify, whole commands (cuzk ms / snarkjs ms): ${a.map((v, i) => `${v}/${b[i]}`).join(', ')};`
  + ` snarkjs/cuzk median ${median(a.map((v, i) => b[i] / Math.max(v, 1))).toFixed(2)}x`);
console.log(`verify, the Java command (CUZK_VERIFY=java, ms / snarkjs ms): ${j.map((v, i) => `${v}/${b[i]}`).join(', ')};`
  + ` snarkjs/cuzk median ${median(j.map((v, i) => b[i] / v)).toFixed(2)}x`);
console.log(`wtns calculate, whole commands (cuzk ms / snarkjs ms): ${c.map((v, i) => `${v}/${d[i]}`).join(', ')};`
  + ` snarkjs/cuzk median ${median(c.map((v, i) => d[i] / v)).toFixed(2)}x`);
JS
