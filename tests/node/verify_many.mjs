// Verifies many Groth16 proofs of one key with snarkjs in one process:
//   node verify_many.mjs verification_key.json proofs.json
// where proofs.json is a list of {"proof": "<proof.json text>", "public": "<public.json text>"}.
// Prints "ok N", or "bad I" and exits 1 at the first proof snarkjs rejects.
import * as snarkjs from "snarkjs";
import { readFileSync } from "fs";

const [vkPath, listPath] = process.argv.slice(2);
const vk = JSON.parse(readFileSync(vkPath, "utf8"));
const items = JSON.parse(readFileSync(listPath, "utf8"));
const quiet = { info() {}, debug() {}, warn() {}, error(m) { console.error(m); } };
let ok = 0;
for (const [i, item] of items.entries()) {
  if (!(await snarkjs.groth16.verify(vk, JSON.parse(item.public), JSON.parse(item.proof), quiet))) {
    console.log(`bad ${i}`);
    process.exit(1);
  }
  ok++;
}
console.log(`ok ${ok}`);
process.exit(0);
