// Times a G1 MSM in the JavaScript provers' engines, single-threaded, for comparison with cuzk.
// Usage: node bench_msm.mjs <bn254|bls12-381> <logSize> [runs] [nobleRuns]
// Prints JSON: {"curve","logSize","ffjavascriptMs":[...],"nobleMs":[...]}
import { buildBn128, buildBls12381 } from 'ffjavascript';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';

const [curveName, logArg, runsArg, nobleArg] = process.argv.slice(2);
const logSize = Number(logArg);
const runs = Number(runsArg || 3);
const nobleRuns = Number(nobleArg ?? Math.min(runs, 2));
const n = 1 << logSize;
const singleThread = true;
const ff = curveName === 'bls12-381' ? await buildBls12381(singleThread) : await buildBn128(singleThread);
const noble = curveName === 'bls12-381' ? bls12_381 : bn254;
const G = ff.G1;
const n8 = G.F.n8;

// 4096 distinct points, repeated (as the Java benchmark does), and random scalars below r
const distinct = Math.min(n, 4096);
let seed = 12345n;
const rnd = () => { seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return seed; };
const randScalar = () => ((rnd() << 192n) | (rnd() << 128n) | (rnd() << 64n) | rnd()) % noble.G1.Point.Fn.ORDER;
const base = [];
let p = noble.G1.Point.BASE.multiply(randScalar());
const step = noble.G1.Point.BASE.multiply(randScalar());
for (let i = 0; i < distinct; i++) { base.push(p); p = p.add(step); }
const points = Array.from({ length: n }, (_, i) => base[i % distinct]);
const scalars = Array.from({ length: n }, () => randScalar());

const bases = new Uint8Array(n * n8 * 2);
const scal = new Uint8Array(n * 32);
const toLe = (v, out, off) => { for (let i = 0; i < 32; i++) { out[off + i] = Number(v & 255n); v >>= 8n; } };
for (let i = 0; i < distinct; i++) {
  const a = base[i].toAffine();
  const fp = G.F;
  const buf = new Uint8Array(n8 * 2);
  // ffjavascript wants affine points in its little-endian Montgomery layout: build from normal form
  const xb = new Uint8Array(n8), yb = new Uint8Array(n8);
  let x = a.x, y = a.y;
  for (let k = 0; k < n8; k++) { xb[k] = Number(x & 255n); x >>= 8n; yb[k] = Number(y & 255n); y >>= 8n; }
  buf.set(fp.e(fp.fromRprLE(xb, 0)), 0);
  buf.set(fp.e(fp.fromRprLE(yb, 0)), n8);
  for (let j = i; j < n; j += distinct) bases.set(buf, j * n8 * 2);
}
for (let i = 0; i < n; i++) toLe(scalars[i], scal, i * 32);

const ffMs = [];
let ffRes;
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  ffRes = await G.multiExpAffine(bases, scal);
  ffMs.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const nobleMs = [];
let nbRes;
for (let r = 0; r < nobleRuns; r++) {
  const t = process.hrtime.bigint();
  nbRes = pippenger(noble.G1.Point, points, scalars);
  nobleMs.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const ffAff = G.toObject(G.toAffine(ffRes));
const nbAff = nbRes ? nbRes.toAffine() : null;
const agree = nbAff ? ffAff[0] === nbAff.x && ffAff[1] === nbAff.y : null;
await ff.terminate();
process.stdout.write(JSON.stringify({ curve: curveName, logSize, ffjavascriptMs: ffMs, nobleMs, resultsAgree: agree }) + '\n');
