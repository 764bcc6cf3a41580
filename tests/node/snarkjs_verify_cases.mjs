// snarkjs's answers for the verifier tests, in one process:
//   node snarkjs_verify_cases.mjs <circuit.zkey> <witness.wtns>
// proves the witness with snarkjs (groth16 fullprove's second half: prove), exports the
// verification key and the Solidity calldata, and checks the proof and tampered copies of it
// (every field of the proof and every public signal changed so that the points stay valid) with
// snarkjs.groth16.verify. Prints one JSON document: {"vk": <verification_key.json>, "calldata":
// "<soliditycalldata>", "cases": [{"name", "proof": <proof.json>, "public": <public.json>, "valid"}]}.
import * as snarkjs from "snarkjs";

const [zkey, wtns] = process.argv.slice(2);
const quiet = { info() {}, debug() {}, warn() {}, error() {} };
const vk = await snarkjs.zKey.exportVerificationKey(zkey, quiet);
const { proof, publicSignals } = await snarkjs.groth16.prove(zkey, wtns, quiet);
const curve = await snarkjs.curves.getCurveFromName(vk.curve);
const calldata = await snarkjs.groth16.exportSolidityCallData(proof, publicSignals);
const F = curve.G1.F, r = curve.Fr.p;
const neg = (y) => ((F.p - BigInt(y)) % F.p).toString();
const negG2y = (y) => [neg(y[0]), neg(y[1])];
const cases = [{ name: "valid", proof, public: publicSignals }];
const clone = (x) => JSON.parse(JSON.stringify(x));
let p;
p = clone(proof); p.pi_a[1] = neg(p.pi_a[1]); cases.push({ name: "pi_a negated", proof: p, public: publicSignals });
p = clone(proof); p.pi_a = clone(proof.pi_c); cases.push({ name: "pi_a replaced by pi_c", proof: p, public: publicSignals });
p = clone(proof); p.pi_b[1] = negG2y(p.pi_b[1]); cases.push({ name: "pi_b negated", proof: p, public: publicSignals });
p = clone(proof); p.pi_c[1] = neg(p.pi_c[1]); cases.push({ name: "pi_c negated", proof: p, public: publicSignals });
p = clone(proof); p.pi_c = clone(proof.pi_a); cases.push({ name: "pi_c replaced by pi_a", proof: p, public: publicSignals });
for (let i = 0; i < publicSignals.length; i++) {
  const pub = clone(publicSignals);
  pub[i] = ((BigInt(pub[i]) + 1n) % r).toString();
  cases.push({ name: `public signal ${i} + 1`, proof, public: pub });
}
for (const c of cases) c.valid = await snarkjs.groth16.verify(vk, c.public, c.proof, quiet);
console.log(JSON.stringify({ vk, calldata, cases }));
process.exit(0);
