// Reference MSM cases computed with @noble/curves (an implementation independent of cuzk).
//
// Usage: node msm_reference.mjs <bn254|bls12-381> <g1|g2> <seed> <sizes...|edge>
// Prints one JSON document: {"cases":[{"name","points":[hex],"scalars":[hex],"expected":hex}]}
// Points and results are in the Ethereum encoding of the curve (EIP-2537 for BLS12-381,
// EIP-196/197 for BN254); scalars are 32-byte big-endian and may be >= r (the expected value
// uses them reduced mod r, as the group has order r).
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';

const [curveName, groupName, seedArg, ...rest] = process.argv.slice(2);
const curve = { 'bn254': bn254, 'bls12-381': bls12_381 }[curveName];
if (!curve || !['g1', 'g2'].includes(groupName)) {
  console.error('usage: msm_reference.mjs <bn254|bls12-381> <g1|g2> <seed> <sizes...|edge>');
  process.exit(2);
}
const P = groupName === 'g1' ? curve.G1.Point : curve.G2.Point;
const r = P.Fn.ORDER;
const fpHex = curveName === 'bn254' ? 64 : 128; // hex digits per encoded Fp (32 or 64 bytes)

// xorshift-style 64-bit generator: deterministic per seed, so failures reproduce
let state = BigInt(seedArg) ^ 0x9e3779b97f4a7c15n;
const M64 = (1n << 64n) - 1n;
function next64() {
  state ^= (state << 13n) & M64; state ^= state >> 7n; state ^= (state << 17n) & M64;
  return state & M64;
}
function randBits(bits) {
  let x = 0n;
  for (let i = 0; i < bits; i += 64) x = (x << 64n) | next64();
  return x & ((1n << BigInt(bits)) - 1n);
}
const randScalar = () => randBits(256) % r;
const hex = (v, digits) => v.toString(16).padStart(digits, '0');

function encodeFp(v) { return hex(v, fpHex); }
function encodePoint(pt) {
  if (pt.equals(P.ZERO)) return '0'.repeat(fpHex * (groupName === 'g1' ? 2 : 4));
  const a = pt.toAffine();
  if (groupName === 'g1') return encodeFp(a.x) + encodeFp(a.y);
  // EIP-2537 writes Fp2 as c0|c1; EIP-197 as c1|c0 (imaginary part first)
  const fp2 = (e) => curveName === 'bn254' ? encodeFp(e.c1) + encodeFp(e.c0) : encodeFp(e.c0) + encodeFp(e.c1);
  return fp2(a.x) + fp2(a.y);
}

// n distinct pseudo-random points: a random start, then repeated addition of a random step
function randomPoints(n) {
  const pts = [];
  let p = P.BASE.multiply(randScalar() || 1n);
  const step = P.BASE.multiply(randScalar() || 1n);
  for (let i = 0; i < n; i++) { pts.push(p); p = p.add(step); }
  return pts;
}

function makeCase(name, points, scalars) {
  const expected = pippenger(P, points, scalars.map((s) => s % r));
  return {
    name,
    points: points.map(encodePoint),
    scalars: scalars.map((s) => hex(s, 64)),
    expected: encodePoint(expected),
  };
}

const cases = [];
if (rest[0] === 'edge') {
  const [a, b, c] = randomPoints(3);
  const big = (1n << 256n) - 1n;
  cases.push(makeCase('n=0', [], []));
  cases.push(makeCase('n=1 random', [a], [randScalar()]));
  cases.push(makeCase('n=1 scalar 0', [a], [0n]));
  cases.push(makeCase('n=1 scalar 1', [a], [1n]));
  cases.push(makeCase('n=1 scalar r-1', [a], [r - 1n]));
  cases.push(makeCase('n=1 scalar r', [a], [r]));
  cases.push(makeCase('n=1 scalar r+1', [a], [r + 1n]));
  cases.push(makeCase('n=1 scalar 2^256-1', [a], [big]));
  cases.push(makeCase('n=1 infinity', [P.ZERO], [randScalar()]));
  cases.push(makeCase('all scalars zero', [a, b, c], [0n, 0n, 0n]));
  cases.push(makeCase('all points infinity', [P.ZERO, P.ZERO], [randScalar(), randScalar()]));
  cases.push(makeCase('P and -P cancel', [a, a.negate()], [5n, 5n]));
  cases.push(makeCase('same point and scalar twice (bucket doubling)', [a, a], [7n, 7n]));
  cases.push(makeCase('repeated point, mixed scalars', [a, b, a, a, c, b], [3n, r - 3n, 11n, 0n, r, big]));
  const mixedPts = [], mixedSc = [];
  for (let i = 0; i < 67; i++) {
    const k = i % 7;
    mixedPts.push(k === 0 ? P.ZERO : k === 1 ? a : k === 2 ? a.negate() : k === 3 ? b : P.BASE.multiply(BigInt(i + 1)));
    const s = [0n, 1n, r - 1n, r, r + 5n, big, randScalar(), 2n * r][i % 8];
    mixedSc.push(s);
  }
  cases.push(makeCase('67 mixed edge pairs', mixedPts, mixedSc));
  // high-bit scalars exercise the top signed window and its carry
  cases.push(makeCase('scalars near 2^255 and 2^256', [a, b, c], [1n << 255n, (1n << 255n) - 1n, (1n << 256n) - r]));
} else {
  for (const s of rest) {
    const n = Number(s);
    const pts = randomPoints(n);
    const sc = [];
    for (let i = 0; i < n; i++) sc.push(randBits(256)); // any 256-bit value, often >= r
    cases.push(makeCase(`random n=${n}`, pts, sc));
  }
}
process.stdout.write(JSON.stringify({ curve: curveName, group: groupName, cases }));
