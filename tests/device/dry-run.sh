#!/usr/bin/env bash
# The device check without a device, for CI: packs what tests/device/run.sh needs (pack.sh) and runs
# that very script with CUZK_DEVICE_BACKEND=cpu, from the packed runtime and jars, then checks its
# summary. Everything a CPU can show is shown here before a device run spends its minutes: the
# archive unpacks, the runtime starts, the JUnit classes are found (and skip, saying no device),
# every packed circuit proves and its proof verifies, the benchmark's options parse (it then stops
# with its one no-device line), the engine's workload runs, and the results archive is written.
# Run after `mvn verify` (or `mvn package` and the tests that make tests/target/circuits).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tests/device/pack.sh
out=$(mktemp -d /tmp/cuzk-dry-run-XXXXXX)
trap 'rm -rf "$out"' EXIT
OUT=$out CUZK_DEVICE_BACKEND=cpu tests/device/run.sh > "$out/stdout.txt" 2>&1 || {
  echo "dry run: tests/device/run.sh exited $?"; cat "$out/stdout.txt"; exit 1; }
summary="$out/summary.txt"
cat "$summary"
fail() { echo "dry run: $*" >&2; exit 1; }
grep -q 'FAILED' "$summary" && fail "a step failed (above)"
grep -qE '^junit \(exit 0\): .*\[ 0 tests failed \]' "$summary" || fail "the JUnit step did not run its classes cleanly"
grep -qE '^junit .* [1-9][0-9]* tests aborted' "$summary" || fail "the GPU tests were not found (none skipped for want of a device)"
proofs=$(grep -c '^prove ' "$summary" || true)
[ "$proofs" -ge 1 ] || fail "no circuit was proved"
verified=$(grep -cE '^prove .*verify \(exit 0\)' "$summary" || true)
[ "$verified" -eq "$proofs" ] || fail "$((proofs - verified)) of $proofs proofs did not verify"
grep -qE '^bench: .*(CUDA|cuda|device)' "$summary" || fail "gpu-bench (bls12-381) did not stop at its no-device line"
grep -qE '^bench bn254: .*(CUDA|cuda|device)' "$summary" || fail "gpu-bench (bn254) did not stop at its no-device line"
grep -qE '^workload: \{' "$summary" || fail "the workload did not report"
grep -qE '^bench g2: .*(CUDA|cuda|device)' "$summary" || fail "gpu-bench --g2 did not stop at its no-device line"
grep -qE '^bench shifted: .*(CUDA|cuda|device)' "$summary" || fail "gpu-bench --shifted did not stop at its no-device line"
listing=$(tar -tzf "$out/results.tar.gz")  # not piped into grep -q: with pipefail, tar's SIGPIPE would fail the test
grep -q 'proofs/poseidon-bn254/proof.json' <<< "$listing" || fail "results.tar.gz lacks the sample's proof"
echo "dry run: OK ($proofs proofs verified; the GPU steps stopped at their no-device lines)"
