// Builds Groth16 test sets with the real tools: circom2 compiles each circuit, snarkjs makes a
// powers of tau (one contribution, prepared for phase 2), the zkey (one phase-2 contribution), the
// verification key and the witness.
//
// Usage: node make_circuits.mjs <outDir> <bn128|bls12381> <circuitsDir> <ptauCacheDir> [--plonk] <name...>
// For each name: <outDir>/<curve>/<name>/{circuit.zkey, witness.wtns, verification_key.json}, and
// with --plonk also plonk.zkey and fflonk.zkey (keys of other protocols, which a Groth16 prover must
// refuse).
// The prepared powers of tau (2^10) is kept in ptauCacheDir, since preparing it is the slow step.
import fs from 'fs';
import path from 'path';
import { execFileSync } from 'child_process';
import { fileURLToPath } from 'url';
import * as snarkjs from 'snarkjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [outDir, curveName, circuitsDir, cacheDir, ...rest] = process.argv.slice(2);
const plonk = rest[0] === '--plonk';
const names = plonk ? rest.slice(1) : rest;
if (!names.length || !['bn128', 'bls12381'].includes(curveName)) {
  console.error('usage: make_circuits.mjs <outDir> <bn128|bls12381> <circuitsDir> <ptauCacheDir> <name...>');
  process.exit(2);
}
const POWER = 10;
const log = (m) => process.stderr.write(`[make_circuits ${curveName}] ${m}\n`);
const inputs = JSON.parse(fs.readFileSync(path.join(circuitsDir, 'inputs.json'), 'utf8'));

async function preparedPtau() {
  fs.mkdirSync(cacheDir, { recursive: true });
  const snarkjsVersion = JSON.parse(fs.readFileSync(path.join(here, 'node_modules/snarkjs/package.json'))).version;
  const final = path.join(cacheDir, `${curveName}-p${POWER}-snarkjs${snarkjsVersion}.ptau`);
  if (fs.existsSync(final)) return final;
  const curve = await snarkjs.curves.getCurveFromName(curveName);
  const p0 = final + '.0', p1 = final + '.1';
  log(`powers of tau 2^${POWER}: new, contribute, prepare phase 2 (slow)`);
  await snarkjs.powersOfTau.newAccumulator(curve, POWER, p0);
  await snarkjs.powersOfTau.contribute(p0, p1, 'cuzk tests', `cuzk-java test entropy ${Date.now()} ${Math.random()}`);
  await snarkjs.powersOfTau.preparePhase2(p1, final + '.tmp');
  fs.renameSync(final + '.tmp', final);
  fs.rmSync(p0); fs.rmSync(p1);
  return final;
}

function commonAncestor(a, b) {
  const pa = a.split(path.sep), pb = b.split(path.sep);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join(path.sep) || path.sep;
}

// Compiles a circuit with circom2 into dir: the outputs flags name (the .sym beside <name>_js/ names
// the signals, which the witness calculator's messages use).
function circom(name, dir, outputs) {
  // circom2 runs as WebAssembly and finds includes only below its working directory: run it from
  // the folder that holds both the circuits and node_modules.
  const root = commonAncestor(path.resolve(circuitsDir), here);
  const rel = (p) => path.relative(root, path.resolve(p)) || '.';
  execFileSync(process.execPath, [path.join(here, 'node_modules/circom2/cli.js'), rel(path.join(circuitsDir, `${name}.circom`)),
    ...outputs, '--prime', curveName, '-o', path.resolve(dir), '-l', rel(path.join(here, 'node_modules')),
    '-l', rel(circuitsDir)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const ptau = await preparedPtau();
for (const name of names) {
  const dir = path.join(outDir, curveName, name);
  const done = path.join(dir, 'verification_key.json');
  const r1cs = path.join(dir, `${name}.r1cs`);
  if (fs.existsSync(done) && fs.existsSync(path.join(dir, 'witness.wtns'))) {
    if (plonk && !fs.existsSync(path.join(dir, 'fflonk.zkey'))) await otherProtocols(r1cs, dir);
    if (!fs.existsSync(path.join(dir, `${name}.sym`))) circom(name, dir, ['--sym']); // a set made before the symbols were
    continue;
  }
  fs.mkdirSync(dir, { recursive: true });
  log(`${name}: circom2, zkey, witness`);
  circom(name, dir, ['--r1cs', '--wasm', '--sym']);
  await snarkjs.zKey.newZKey(r1cs, ptau, path.join(dir, 'k0.zkey'));
  await snarkjs.zKey.contribute(path.join(dir, 'k0.zkey'), path.join(dir, 'circuit.zkey'), 'cuzk tests',
    `cuzk-java phase 2 ${Date.now()} ${Math.random()}`);
  fs.rmSync(path.join(dir, 'k0.zkey'));
  const vk = await snarkjs.zKey.exportVerificationKey(path.join(dir, 'circuit.zkey'));
  await snarkjs.wtns.calculate(inputs[name], path.join(dir, `${name}_js`, `${name}.wasm`), path.join(dir, 'witness.wtns'));
  if (plonk) await otherProtocols(r1cs, dir);
  fs.writeFileSync(done, JSON.stringify(vk, null, 1));
}

async function otherProtocols(r1cs, dir) {
  await snarkjs.plonk.setup(r1cs, ptau, path.join(dir, 'plonk.zkey'));
  await snarkjs.fflonk.setup(r1cs, ptau, path.join(dir, 'fflonk.zkey'));
}
// snarkjs keeps worker threads alive; leave explicitly
process.exit(0);
