#!/usr/bin/env bash
# Same machine, same run: `bin/cuzk prove` against `snarkjs groth16 prove` (0.7.6, from tests/node)
# on the same zkey and witness, in alternating rounds (the machine's speed drifts), as whole
# commands the way users run them. Prints each round's wall times, the median ratio snarkjs/cuzk,
# and cuzk's own proving time (without JVM start-up and key reading).
# Usage: jmh/prove-vs-snarkjs.sh <circuit.zkey> <witness.wtns> [rounds=3]
# Needs: mvn -DskipTests package, and npm install in tests/node.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
zkey=${1:?circuit.zkey}; wtns=${2:?witness.wtns}; rounds=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
snarkjs="node $root/tests/node/node_modules/snarkjs/build/cli.cjs"
now() { date +%s%N; }
cuzk_ms=(); snark_ms=(); inproc=()
for r in $(seq 1 "$rounds"); do
  t0=$(now)
  line=$("$root/bin/cuzk" prove "$zkey" "$wtns" "$out/p.json" "$out/pub.json" | head -1)
  t1=$(now)
  $snarkjs groth16 prove "$zkey" "$wtns" "$out/sp.json" "$out/spub.json" >/dev/null
  t2=$(now)
  cuzk_ms+=($(( (t1 - t0) / 1000000 ))); snark_ms+=($(( (t2 - t1) / 1000000 )))
  inproc+=("$(echo "$line" | sed -n 's/.*proved \([0-9]*\) ms.*/\1/p')")
done
node - "$zkey" "${cuzk_ms[*]}" "${snark_ms[*]}" "${inproc[*]}" <<'JS'
const [zkey, c, s, p] = process.argv.slice(2);
const cu = c.split(' ').map(Number), sn = s.split(' ').map(Number), ip = p.split(' ').map(Number);
const median = (a) => { const x = [...a].sort((u, v) => u - v); return x[Math.floor(x.length / 2)]; };
const ratios = cu.map((v, i) => sn[i] / v);
console.log(`${zkey}`);
console.log(`  rounds (cuzk ms / snarkjs ms): ${cu.map((v, i) => `${v}/${sn[i]}`).join(', ')}`);
console.log(`  snarkjs/cuzk, whole commands: median ${median(ratios).toFixed(2)}x;`
  + ` cuzk proving alone ${median(ip)} ms (snarkjs/that: ${(median(sn) / median(ip)).toFixed(1)}x)`);
JS
