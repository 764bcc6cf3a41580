package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.groth16.ProvingKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.lang3.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key file truncated by another process while its key is open: a key that owns its bytes
 * (ProvingKey.read, and so the KeyStore) proves on as if nothing happened, and the store's next
 * acquire reports the truncated file; a mapped key (ProvingKey.map, what read did before) ends the
 * process with SIGBUS in the MSM, which is why it is only for files nobody changes. Child JVMs,
 * since the control case crashes its JVM.
 */
class KeyChangeTest {
    @TempDir
    Path tmp;

    record Result(int exit, String out, Path dir) {}

    Result probe(String mode) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(mode));
        Path set = Circuits.dir(Curve.BN254, "poseidon_main");
        Path zkey = Files.copy(set.resolve("circuit.zkey"), dir.resolve("circuit.zkey"));
        String cp = Stream.of(KeyChangeProbe.class, ProvingKey.class, io.cuzk.Curve.class, Validate.class).map(KeyChangeTest::location)
                .reduce((a, b) -> a + ":" + b).orElseThrow();
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"), "-XX:-CreateCoredumpOnCrash", "-cp", cp, KeyChangeProbe.class.getName(), mode,
                zkey.toString(), set.resolve("witness.wtns").toString(), dir.resolve("proof.json").toString(),
                dir.resolve("public.json").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM hung");
        return new Result(p.exitValue(), out, dir);
    }

    static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    void verifies(Result r) {
        Path vk = Circuits.dir(Curve.BN254, "poseidon_main").resolve("verification_key.json");
        Node.Result v = Node.snarkjs("groth16", "verify", vk.toString(), r.dir().resolve("public.json").toString(),
                r.dir().resolve("proof.json").toString());
        assertTrue(v.out().contains("OK!"), "snarkjs: " + v.out() + v.err());
    }

    @Test
    void aKeyThatOwnsItsBytesProvesOnAfterItsFileIsTruncated() throws Exception {
        Result r = probe("read");
        assertEquals(0, r.exit(), r.out());
        verifies(r);
    }

    @Test
    void theKeyStoreProvesOnAndItsNextAcquireReportsTheTruncatedFile() throws Exception {
        Result r = probe("store");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("next acquire: ") && r.out().contains("truncated"), r.out());
        verifies(r);
    }

    /** The control: the same steps on a mapped key crash the JVM (what ProvingKey.read did before). */
    @Test
    void aMappedKeyCrashesItsProcessWhenItsFileIsTruncated() throws Exception {
        Result r = probe("map");
        assertNotEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("truncated") && !r.out().contains("proved"), r.out());
        try (Stream<Path> s = Files.list(r.dir())) {
            List<String> crashLogs = s.map(x -> x.getFileName().toString()).filter(n -> n.startsWith("hs_err")).toList();
            assertEquals(1, crashLogs.size(), "the JVM wrote a crash log: " + r.out());
            assertTrue(Files.readString(r.dir().resolve(crashLogs.get(0))).contains("SIGBUS"), "it was SIGBUS");
        }
    }
}
