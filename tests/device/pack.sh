#!/usr/bin/env bash
# Packs what tests/device/run.sh needs on the GPU machine (which has CUDA but no Java, Maven or
# network) into one archive, .device/payload.tar.gz: a jlink'd JDK 25
# runtime, the JUnit console launcher, the jars the GPU checks use (the CLI without the daemon's and
# the witness calculator's libraries), the bindings' test classes and the circuits to prove. The
# device tool carries at most 64 MiB with the working tree: the runtime alone is 43 MiB unpacked,
# the archive about a third of it all. (.gitignore keeps .device/ out of git.)
# Run here after `mvn -DskipTests package` and `mvn test-compile` (and once the tests have made
# tests/target/circuits, for the extra circuits). Then call the device tool with carry [".device"]
# and command "tests/device/run.sh".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
JDK=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JUNIT=${JUNIT_CONSOLE_VERSION:-6.0.3}
rm -rf .device
stage=.device/stage
mkdir -p "$stage/lib" "$stage/app" "$stage/circuits"
"$JDK/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported,jdk.management \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$stage/jre"
jar=$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$JUNIT/junit-platform-console-standalone-$JUNIT.jar
[ -f "$jar" ] || mvn -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:$JUNIT >/dev/null
cp "$jar" "$stage/lib/junit-console.jar"
cp cli/target/cuzk-cli.jar "$stage/app/"
# what info, prove, verify, gpu-bench and workload load; the manifest's other entries may be absent
for j in cuzk-bindings cuzk-prover cuzk-engine cuzk-picocli commons-lang3 jackson-annotations jackson-core jackson-databind \
    HdrHistogram jspecify; do
  # the newest build of each (target/lib may hold stale versions)
  cp "$(ls -t cli/target/lib/"$j"-[0-9]*.jar | head -1)" "$stage/app/"
done
cp -r bindings/target/test-classes "$stage/app/bindings-test-classes"
cp -r samples/poseidon-bn254 "$stage/circuits/"
if [ -d tests/target/circuits ]; then
  for d in tests/target/circuits/*/*/; do
    name=$(basename "$(dirname "$d")")-$(basename "$d")
    mkdir -p "$stage/circuits/$name"
    cp "$d/circuit.zkey" "$d/witness.wtns" "$d/verification_key.json" "$stage/circuits/$name/"
  done
fi
tar -czf .device/payload.tar.gz -C "$stage" .
rm -rf "$stage"
du -sh .device/payload.tar.gz
