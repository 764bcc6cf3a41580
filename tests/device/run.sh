#!/usr/bin/env bash
# The project's GPU check, for the lent H200 (CUDA, no Java, no network), from a tree packed by
# tests/device/pack.sh. Writes full logs and the proofs under $OUT and prints a short table last.
# It finishes within about 8 minutes: each step has a time limit, and later steps are skipped once
# their start budget has passed; every table line also goes to $OUT/summary.txt as soon as it is
# known, so a run cut short still reports. Verify the proofs afterwards, here, with snarkjs:
#   for d in <files_at>/proofs/*/; do npx snarkjs groth16 verify "$d/verification_key.json" "$d/public.json" "$d/proof.json"; done
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/cuzk-device}
mkdir -p "$OUT/proofs"
JAVA="$root/.device/jre/bin/java"
CP="$root/.device/app/cuzk-cli.jar:$(ls "$root"/.device/app/*.jar | grep -v cuzk-cli.jar | tr '\n' ':')"
JOPTS=(--enable-native-access=ALL-UNNAMED -Dcuzk.home="$root" -Xmx32g)
summary=()
started=$(date +%s)
: > "$OUT/summary.txt"
note() { summary+=("$1"); echo "$1" >> "$OUT/summary.txt"; }
step() { echo "== $* ($(( $(date +%s) - started )) s)" | tee -a "$OUT/steps.log"; }
budget() { [ $(( $(date +%s) - started )) -lt "$1" ]; }

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1 || echo "no nvidia-smi" > "$OUT/gpu.txt"
note "gpu: $(head -1 "$OUT/gpu.txt")"
"$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main info > "$OUT/info.txt" 2>&1
note "$(grep '^backend:' "$OUT/info.txt")"

step "GPU tests (JUnit): arithmetic, runtime, backend, 2^10..2^20"
timeout 150 "$JAVA" "${JOPTS[@]}" -Dcuzk.gpu.full=true -jar .device/lib/junit-console.jar execute \
  --class-path "$CP:$root/.device/app/bindings-test-classes" \
  --select-class io.cuzk.CudaSelfTest --select-class io.cuzk.CudaRuntimeTest --select-class io.cuzk.CudaBackendTest \
  --select-class io.cuzk.GpuScaleTest \
  --details=tree --disable-banner > "$OUT/junit.txt" 2>&1
note "junit: $(grep -E 'tests (successful|failed|aborted)' "$OUT/junit.txt" | tr -s ' ' | tr '\n' ';')"

step "proofs on the GPU"
for d in "$root"/.device/circuits/*/; do
  name=$(basename "$d")
  if ! budget 300; then
    note "prove $name: skipped (time)"
    continue
  fi
  mkdir -p "$OUT/proofs/$name"
  cp "$d/verification_key.json" "$OUT/proofs/$name/"
  if timeout 30 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main prove --backend cuda "$d/circuit.zkey" "$d/witness.wtns" \
      "$OUT/proofs/$name/proof.json" "$OUT/proofs/$name/public.json" > "$OUT/proofs/$name/log.txt" 2>&1; then
    note "prove $name: $(grep -o 'proved [0-9]* ms' "$OUT/proofs/$name/log.txt")"
  else
    note "prove $name: FAILED ($(tail -1 "$OUT/proofs/$name/log.txt"))"
  fi
done

step "kernel timings (CUDA events)"
if budget 330; then
  timeout 100 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main gpu-bench --curve bls12-381 --msm 20,22,24 --ntt 20,24 \
    > "$OUT/bench-bls.txt" 2>&1
fi
if budget 400; then
  timeout 50 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main gpu-bench --curve bn254 --msm 20,24 --ntt 24 > "$OUT/bench-bn.txt" 2>&1
fi
touch "$OUT/bench-bls.txt" "$OUT/bench-bn.txt"
while read -r line; do note "$line"; done < <(grep -hE '^(msm|ntt)' "$OUT/bench-bls.txt" "$OUT/bench-bn.txt")
grep -hqE '^(msm|ntt)' "$OUT/bench-bls.txt" || note "bench: $(tail -1 "$OUT/bench-bls.txt")"

step "engine workload on the GPU"
s="$root/.device/circuits/poseidon-bn254"
if budget 440; then
  timeout 50 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.cuzk.cli.Main workload --zkey "$s/circuit.zkey" --wtns "$s/witness.wtns" \
    --jobs 10 --partitions 10 --backend cuda --json > "$OUT/workload.json" 2> "$OUT/workload.err"
fi
if [ -s "$OUT/workload.json" ]; then
  note "workload: $(head -c 400 "$OUT/workload.json")"
else
  note "workload: FAILED or skipped ($(tail -1 "$OUT/workload.err" 2>/dev/null))"
fi

echo
echo "==== cuzk device check ($(date -u +%Y-%m-%dT%H:%MZ), $(( $(date +%s) - started )) s) ===="
printf '%s\n' "${summary[@]}"
