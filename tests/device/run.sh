#!/usr/bin/env bash
# The project's GPU check, for the lent H200 (CUDA, no Java, no network), from the archive packed by
# tests/device/pack.sh (carried as .device/). It unpacks the archive under /tmp, runs the GPU tests,
# proves every packed circuit on the GPU and verifies each proof with the project's verifier, times
# the kernels and runs the engine; it prints a short table last. A device run returns at most 8
# files: $OUT holds two, summary.txt (the table, a line as soon as it is known, so a run cut short
# still reports) and results.tar.gz (every log and proof, refreshed after each step).
# It finishes within about 9 minutes: each step has a time limit, and later steps are skipped once
# their start budget has passed. Afterwards, here, snarkjs can check the proofs as well:
#   tar xzf <files_at>/results.tar.gz -C r && for d in r/proofs/*/; do npx snarkjs groth16 verify "$d/verification_key.json" "$d/public.json" "$d/proof.json"; done
# CUZK_DEVICE_BACKEND=cpu runs the same steps on the CPU backend: tests/device/dry-run.sh does that
# in CI, so that a device run cannot fail for a reason a CPU would have shown.
set -uo pipefail
backend=${CUZK_DEVICE_BACKEND:-cuda}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/cuzk-device}
mkdir -p "$OUT"
base=$(mktemp -d /tmp/cuzk-device-XXXXXX)
pkg="$base/pkg" logs="$base/logs"
mkdir -p "$pkg" "$logs/proofs"
trap 'rm -rf "$base"' EXIT
summary=()
started=$(date +%s)
: > "$OUT/summary.txt"
note() { summary+=("$1"); echo "$1" >> "$OUT/summary.txt"; }
step() { echo "== $* ($(( $(date +%s) - started )) s)" | tee -a "$logs/steps.log"; }
budget() { [ $(( $(date +%s) - started )) -lt "$1" ]; }
save() { tar -czf "$OUT/results.tar.gz.part" -C "$logs" . && mv "$OUT/results.tar.gz.part" "$OUT/results.tar.gz"; }

step "unpack"
if ! tar -xzf "$root/.device/payload.tar.gz" -C "$pkg" 2> "$logs/unpack.txt"; then
  note "unpack: FAILED ($(tail -1 "$logs/unpack.txt")): run tests/device/pack.sh and carry .device"
  save
  exit 1
fi
JAVA="$pkg/jre/bin/java"
CP="$pkg/app/cuzk-cli.jar:$(ls "$pkg"/app/*.jar | grep -v cuzk-cli.jar | paste -sd: -)"
JOPTS=(--enable-native-access=ALL-UNNAMED -Dcuzk.home="$root" -Xmx32g)
CUZK=("$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main)

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$logs/gpu.txt" 2>&1 || echo "no nvidia-smi" > "$logs/gpu.txt"
note "gpu: $(head -1 "$logs/gpu.txt")"
note "glibc: $(ldd --version 2>&1 | head -1)"
cache=$(ldconfig -p 2>/dev/null || true)
cudart=$(grep -o '/[^ ]*libcudart\.so[^ ]*' <<< "$cache" | head -1 || true)
note "libcudart: ${cudart:-not in the loader cache}"
timeout 60 "${CUZK[@]}" info > "$logs/info.txt" 2>&1
note "$(grep '^backend:' "$logs/info.txt" || tail -1 "$logs/info.txt")"
save

step "GPU tests (JUnit): arithmetic, runtime, backend, 2^10..2^20"
timeout 150 "$JAVA" "${JOPTS[@]}" -Dcuzk.gpu.full=true -jar "$pkg/lib/junit-console.jar" execute \
  --class-path "$CP:$pkg/app/bindings-test-classes" \
  --select-class io.cuzk.CudaSelfTest --select-class io.cuzk.CudaRuntimeTest --select-class io.cuzk.CudaBackendTest \
  --select-class io.cuzk.GpuScaleTest \
  --details=tree --disable-banner > "$logs/junit.txt" 2>&1
rc=$?
note "junit (exit $rc$([ $rc -eq 124 ] && echo ': timed out')): $(grep -E 'tests (successful|failed|aborted)' "$logs/junit.txt" | tr -s ' ' | tr '\n' ';')"
save

step "proofs on the GPU, each verified"
for d in "$pkg"/circuits/*/; do
  name=$(basename "$d")
  if ! budget 300; then
    note "prove $name: skipped (time)"
    continue
  fi
  p="$logs/proofs/$name"
  mkdir -p "$p"
  cp "$d/verification_key.json" "$p/"
  if timeout 30 "${CUZK[@]}" prove --backend "$backend" "$d/circuit.zkey" "$d/witness.wtns" "$p/proof.json" "$p/public.json" > "$p/log.txt" 2>&1; then
    # a wrong H, MSM or NTT on the device gives a proof that does not verify
    timeout 30 "${CUZK[@]}" verify "$p/verification_key.json" "$p/public.json" "$p/proof.json" > "$p/verify.txt" 2>&1
    rc=$?  # 0 valid, 1 invalid, other: could not verify
    note "prove $name: $(grep -o 'proved [0-9]* ms' "$p/log.txt"); verify (exit $rc): $(tail -1 "$p/verify.txt")"
  else
    note "prove $name: FAILED ($(tail -1 "$p/log.txt"))"
  fi
done
save

step "kernel timings (CUDA events)"
if budget 330; then
  timeout 100 "${CUZK[@]}" gpu-bench --curve bls12-381 --msm 20,24 --witness --ntt 20,24 > "$logs/bench-bls.txt" 2>&1
fi
if budget 400; then
  timeout 50 "${CUZK[@]}" gpu-bench --curve bn254 --msm 20,24 --ntt 24 > "$logs/bench-bn.txt" 2>&1
fi
touch "$logs/bench-bls.txt" "$logs/bench-bn.txt"
while read -r line; do note "$line"; done < <(grep -hE '^(msm|ntt)' "$logs/bench-bls.txt" "$logs/bench-bn.txt")
grep -hqE '^(msm|ntt)' "$logs/bench-bn.txt" || note "bench bn254: $(tail -1 "$logs/bench-bn.txt")"
grep -hqE '^(msm|ntt)' "$logs/bench-bls.txt" || note "bench: $(tail -1 "$logs/bench-bls.txt")"
save

step "engine workload on the GPU"
s="$pkg/circuits/poseidon-bn254"
if budget 440; then
  timeout 50 "${CUZK[@]}" workload --zkey "$s/circuit.zkey" --wtns "$s/witness.wtns" --jobs 10 --partitions 10 --backend "$backend" --json \
    > "$logs/workload.json" 2> "$logs/workload.err"
fi
if [ -s "$logs/workload.json" ]; then
  note "workload: $(head -c 400 "$logs/workload.json")"
else
  note "workload: FAILED or skipped ($(tail -1 "$logs/workload.err" 2>/dev/null))"
fi
save

# notes a benchmark's lines (those matching $2; $3 must be among them) or, if none, why not as "$4: ..."
bench_lines() {
  touch "$1"
  if grep -qE "$3" "$1"; then
    while read -r line; do note "$line"; done < <(grep -hE "$2" "$1")
  else
    note "$4: skipped or failed ($(tail -1 "$1"))"
  fi
  save
}

step "G2 MSM: GPU vs the host's CPU backend (the G2Placement choice)"
if budget 490; then
  timeout 45 "${CUZK[@]}" gpu-bench --curve bls12-381 --msm 10 --ntt 10 --g2 16,20 > "$logs/bench-g2.txt" 2>&1
fi
bench_lines "$logs/bench-g2.txt" '^msm-g2' '^msm-g2' "bench g2"

step "G1 MSM over shifted copies of the bases (fixed-base windows, 16- and 20-bit windows)"
if budget 500; then
  timeout 80 "${CUZK[@]}" gpu-bench --curve bls12-381 --msm 20,24 --ntt 10 --runs 2 --shifted 16,20 > "$logs/bench-shifted.txt" 2>&1
fi
bench_lines "$logs/bench-shifted.txt" '^msm-g1' '^msm-g1-shifted' "bench shifted"

echo
echo "==== cuzk device check ($(date -u +%Y-%m-%dT%H:%MZ), $(( $(date +%s) - started )) s) ===="
printf '%s\n' "${summary[@]}"
