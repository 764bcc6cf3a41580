// snarkjs's own Groth16 prover with the blinding factors r and s fixed, for bit-for-bit comparison.
// snarkjs draws r, then s, with curve.Fr.random(); ffjavascript builds each curve once per process
// and hands out that same object, so replacing Fr.random on it reaches the prover.
// Usage: node snarkjs_prove_fixed.mjs <zkey> <wtns> <proof.json> <public.json> <r> <s>
import bfj from 'bfj'; // what snarkjs's command line writes its JSON files with (snarkjs depends on it)
import * as snarkjs from 'snarkjs';

const [zkey, wtns, proofOut, publicOut, r, s] = process.argv.slice(2);
const header = await snarkjs.zKey.exportVerificationKey(zkey);
const curve = await snarkjs.curves.getCurveFromName(header.curve);
const draws = [BigInt(r), BigInt(s)];
curve.Fr.random = () => {
  if (!draws.length) throw new Error('snarkjs drew more than r and s');
  return curve.Fr.e(draws.shift());
};
const { proof, publicSignals } = await snarkjs.groth16.prove(zkey, wtns);
if (draws.length) throw new Error('snarkjs did not draw r and s through Fr.random');
// as `snarkjs groth16 prove` writes them (its cli.js: bfj.write with one space a level)
await bfj.write(proofOut, proof, { space: 1 });
await bfj.write(publicOut, publicSignals, { space: 1 });
process.exit(0);
