#!/usr/bin/env bash
# Same machine, same run: `bin/cuzk prove` against `snarkjs groth16 prove` (0.7.6, from tests/node)
# on the same zkey and witness, in alternating rounds (the machine's speed drifts), as whole
# commands the way users run them. Prints each round's wall times, the median ratio snarkjs/cuzk,
# and the in-process times of both, without their runtimes' start: cuzk's "read" + "proved" (it
# prints them) against snarkjs.groth16.prove timed inside node (which reads the files too).
# Usage: jmh/prove-vs-snarkjs.sh <circuit.zkey> <witness.wtns> [rounds=3]
# Needs: mvn -DskipTests package, and npm install in tests/node.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
zkey=${1:?circuit.zkey}; wtns=${2:?witness.wtns}; rounds=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
snarkjs="node $root/tests/node/node_modules/snarkjs/build/cli.cjs"
now() { date +%s%N; }
cuzk_ms=(); snark_ms=(); inproc=(); snark_inproc=()
# snarkjs.groth16.prove(zkey, wtns) timed inside node, after snarkjs is loaded
cat >"$out/inproc.cjs" <<'JS'
const snarkjs = require(process.argv[2]);
(async () => {
  const t0 = process.hrtime.bigint();
  await snarkjs.groth16.prove(process.argv[3], process.argv[4]);
  console.log(Math.round(Number(process.hrtime.bigint() - t0) / 1e6));
  process.exit(0);
})();
JS
for r in $(seq 1 "$rounds"); do
  t0=$(now)
  line=$("$root/bin/cuzk" prove "$zkey" "$wtns" "$out/p.json" "$out/pub.json" | head -1)
  t1=$(now)
  $snarkjs groth16 prove "$zkey" "$wtns" "$out/sp.json" "$out/spub.json" >/dev/null
  t2=$(now)
  cuzk_ms+=($(( (t1 - t0) / 1000000 ))); snark_ms+=($(( (t2 - t1) / 1000000 )))
  inproc+=("$(echo "$line" | sed -n 's/.*read \([0-9]*\) ms, proved \([0-9]*\) ms.*/\1+\2/p')")
  snark_inproc+=("$(node "$out/inproc.cjs" "$root/tests/node/node_modules/snarkjs" "$zkey" "$wtns")")
done
node - "$zkey" "${cuzk_ms[*]}" "${snark_ms[*]}" "${inproc[*]}" "${snark_inproc[*]}" <<'JS'
const [zkey, c, s, p, q] = process.argv.slice(2);
const cu = c.split(' ').map(Number), sn = s.split(' ').map(Number);
const rp = p.split(' ').map((x) => x.split('+').map(Number)), ip = rp.map((x) => x[1]), both = rp.map((x) => x[0] + x[1]);
const sip = q.split(' ').map(Number);
const median = (a) => { const x = [...a].sort((u, v) => u - v); return x[Math.floor(x.length / 2)]; };
const ratios = cu.map((v, i) => sn[i] / v);
console.log(`${zkey}`);
console.log(`  rounds (cuzk ms / snarkjs ms): ${cu.map((v, i) => `${v}/${sn[i]}`).join(', ')}`);
console.log(`  snarkjs/cuzk, whole commands: median ${median(ratios).toFixed(2)}x;`
  + ` cuzk proving alone ${median(ip)} ms (snarkjs/that: ${(median(sn) / median(ip)).toFixed(1)}x)`);
console.log(`  in process (cuzk read+proved / snarkjs.groth16.prove ms): ${both.map((v, i) => `${v}/${sip[i]}`).join(', ')};`
  + ` median ratio ${median(both.map((v, i) => sip[i] / v)).toFixed(2)}x`);
JS
