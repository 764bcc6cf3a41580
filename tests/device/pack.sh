#!/usr/bin/env bash
# Packs what tests/device/run.sh needs on the GPU machine (which has CUDA but no Java, Maven or
# network) into .device/ (ignored by git): a jlink'd JDK 25 runtime, the JUnit console launcher, the
# built jars and test classes, and the circuits to prove. Run here after `mvn -DskipTests package`
# and `mvn test-compile` (and once the tests have made tests/target/circuits, for the extra circuits).
# Then call the device tool with carry [".device"] and command "tests/device/run.sh".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
JDK=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JUNIT=${JUNIT_CONSOLE_VERSION:-6.0.3}
grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >> .git/info/exclude
mkdir -p .device/lib .device/app
if [ ! -x .device/jre/bin/java ]; then
  "$JDK/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported,jdk.management \
    --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output .device/jre
fi
jar=$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$JUNIT/junit-platform-console-standalone-$JUNIT.jar
[ -f "$jar" ] || mvn -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:$JUNIT >/dev/null
cp "$jar" .device/lib/junit-console.jar
rm -rf .device/app/*
cp cli/target/cuzk-cli.jar .device/app/
cp cli/target/lib/*.jar .device/app/
cp -r bindings/target/test-classes .device/app/bindings-test-classes
mkdir -p .device/circuits
cp -r samples/poseidon-bn254 .device/circuits/
if [ -d tests/target/circuits ]; then
  for d in tests/target/circuits/*/*/; do
    name=$(basename "$(dirname "$d")")-$(basename "$d")
    mkdir -p ".device/circuits/$name"
    cp "$d/circuit.zkey" "$d/witness.wtns" "$d/verification_key.json" ".device/circuits/$name/"
  done
fi
du -sh .device
