// Reference pairings computed with @noble/curves (an implementation independent of cuzk).
//
// Usage: node pairing_reference.mjs <bn254|bls12-381> <seed> <count>
// Prints one JSON document: {"cases":[{"g1":[x,y],"g2":[x0,x1,y0,y1],"pairing":[12 decimals]}]}
// with P = a G1, Q = b G2 for random a, b (the first case: the generators), coordinates in
// decimal, and e(P, Q) as its Fp12 coefficients c0.c0.c0, c0.c0.c1, c0.c1.c0, ... (noble's tower:
// Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v)).
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';

const [curveName, seedArg, countArg] = process.argv.slice(2);
const curve = { 'bn254': bn254, 'bls12-381': bls12_381 }[curveName];
if (!curve || !seedArg || !countArg) {
  console.error('usage: pairing_reference.mjs <bn254|bls12-381> <seed> <count>');
  process.exit(2);
}
let state = BigInt(seedArg) ^ 0x9e3779b97f4a7c15n;
const M64 = (1n << 64n) - 1n;
function next64() {
  state ^= (state << 13n) & M64; state ^= state >> 7n; state ^= (state << 17n) & M64;
  return state & M64;
}
const r = curve.G1.Point.Fn.ORDER;
function scalar() {
  let x = 0n;
  for (let i = 0; i < 4; i++) x = (x << 64n) | next64();
  return (x % (r - 1n)) + 1n;
}
const cases = [];
for (let i = 0; i < Number(countArg); i++) {
  const P = i === 0 ? curve.G1.Point.BASE : curve.G1.Point.BASE.multiply(scalar());
  const Q = i === 0 ? curve.G2.Point.BASE : curve.G2.Point.BASE.multiply(scalar());
  const e = curve.pairing(P, Q);
  const flat = [];
  for (const s of [e.c0, e.c1]) for (const t of [s.c0, s.c1, s.c2]) flat.push(t.c0.toString(), t.c1.toString());
  const p = P.toAffine(), q = Q.toAffine();
  cases.push({ g1: [p.x.toString(), p.y.toString()], g2: [q.x.c0.toString(), q.x.c1.toString(), q.y.c0.toString(), q.y.c1.toString()],
    pairing: flat });
}
console.log(JSON.stringify({ cases }));
