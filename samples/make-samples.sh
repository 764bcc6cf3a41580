#!/usr/bin/env bash
# Regenerates the bundled sample that `bin/cuzk` proves by default: circomlib's Poseidon hash of two
# inputs (tests/circuits/poseidon_main.circom) on BN254, compiled by circom2, with a zkey made by
# snarkjs from a freshly contributed powers of tau (2^10) and one phase-2 contribution, the
# verification key, the circuit's witness generator (circuit.wasm), its input (input.json, from
# tests/circuits/inputs.json) and the witness it gives.
# Usage: samples/make-samples.sh   (needs Node.js; installs the npm packages of tests/node)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root/tests/node" && npm install --no-audit --no-fund --loglevel=error)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$root/tests/node/make_circuits.mjs" "$work" bn128 "$root/tests/circuits" "$work/ptau" poseidon_main
out="$root/samples/poseidon-bn254"
mkdir -p "$out"
for f in circuit.zkey witness.wtns verification_key.json; do
  cp "$work/bn128/poseidon_main/$f" "$out/$f"
done
cp "$work/bn128/poseidon_main/poseidon_main_js/poseidon_main.wasm" "$out/circuit.wasm"
node -e 'const i = require(process.argv[1]).poseidon_main; process.stdout.write(JSON.stringify(i, null, 1) + "\n")' \
  "$root/tests/circuits/inputs.json" >"$out/input.json"
echo "wrote $out"
