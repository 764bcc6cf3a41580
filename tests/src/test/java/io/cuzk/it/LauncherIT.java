package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.Points;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/cuzk as users run it, after the package phase: the packaged jar, the native library extracted
 * from the bindings jar, native access enabled.
 */
class LauncherIT {
    static Path repo() {
        return Path.of(System.getProperty("cuzk.repo.dir", "..")).toAbsolutePath().normalize();
    }

    static Process start(String... args) throws IOException {
        Path launcher = repo().resolve("bin/cuzk");
        assertTrue(Files.isExecutable(launcher), launcher.toString());
        String[] cmd = new String[args.length + 1];
        cmd[0] = launcher.toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        return new ProcessBuilder(cmd).start();
    }

    /**
     * Twice, so that the second run maps the class-data-sharing archive the first one wrote: the
     * output is the answer alone, and no JVM notice (native access, the archive) reaches stderr.
     */
    @Test
    void msmThroughTheLauncher() throws IOException, InterruptedException {
        for (int run = 0; run < 2; run++) {
            Process p = start("msm", "--curve", "bn254", "--group", "g1");
            Point2 in = new Point2();
            p.getOutputStream().write(in.hex.getBytes(StandardCharsets.US_ASCII));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), err);
            assertEquals(in.expected, out);
            assertFalse(err.contains("restricted method"), "native access must be enabled: " + err);
            assertFalse(err.contains("][error]") || err.contains("][warning]"), "run " + run + ": " + err);
        }
    }

    /**
     * The launcher reads the JDK's version from its release file (no second JVM start) and refuses
     * an older JDK with a message naming it; the fake JDK's java must never run.
     */
    @Test
    void anOldJdkIsRefusedByTheLauncher(@TempDir Path jdk) throws IOException, InterruptedException {
        Path java = Files.createDirectories(jdk.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho ran >&2\nexit 42\n");
        assertTrue(java.toFile().setExecutable(true));
        Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"17.0.9\"\nJAVA_VERSION_DATE=\"2023-10-17\"\n");
        ProcessBuilder pb = new ProcessBuilder(repo().resolve("bin/cuzk").toString(), "info");
        pb.environment().put("JAVA_HOME", jdk.toString());
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(3, p.exitValue(), err);
        assertTrue(err.contains("is Java 17") && err.contains("needs Java 25"), err);
        assertFalse(err.contains("ran"), "the launcher must not start the old JDK: " + err);
    }

    /**
     * The README's main job: bin/cuzk with no arguments proves the bundled sample into ./out, and
     * snarkjs verifies the proof with the command it prints.
     */
    @Test
    void theDefaultJobProvesTheSampleAndSnarkjsVerifiesIt(@TempDir Path work) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(repo().resolve("bin/cuzk").toString()).directory(work.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err);
        Path sample = repo().resolve("samples/poseidon-bn254");
        assertTrue(out.contains("groth16 verify " + sample.resolve("verification_key.json")), out);
        Node.Result v = Node.snarkjs("groth16", "verify", sample.resolve("verification_key.json").toString(),
                work.resolve("out/public.json").toString(), work.resolve("out/proof.json").toString());
        assertEquals(0, v.exit(), v.out() + v.err());
        assertTrue(v.out().contains("OK!"), v.out());
    }

    /**
     * wtns calculate of the bundled sample through the launcher, twice with an empty cache of
     * compiled circuits: the first run compiles the circuit and leaves one entry (owner-only), the
     * second runs from it without rewriting it (and with wtns's own AOT cache, whose notices would
     * reach stderr); both write the sample's witness (snarkjs's) byte for byte.
     */
    @Test
    void wtnsThroughTheLauncherKeepsTheCompiledCircuit(@TempDir Path work) throws IOException, InterruptedException {
        Path sample = repo().resolve("samples/poseidon-bn254"), cache = work.resolve("cache");
        byte[] expected = Files.readAllBytes(sample.resolve("witness.wtns"));
        Object written = null;
        for (int run = 0; run < 2; run++) {
            Path out = work.resolve("w" + run + ".wtns");
            ProcessBuilder pb = new ProcessBuilder(repo().resolve("bin/cuzk").toString(), "wtns", "calculate",
                    sample.resolve("circuit.wasm").toString(), sample.resolve("input.json").toString(), out.toString());
            pb.environment().put("CUZK_JAVA_OPTS", "-Dcuzk.witness.cache=" + cache);
            Process p = pb.start();
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), stdout + err);
            assertEquals("", err, "run " + run);
            assertArrayEquals(expected, Files.readAllBytes(out), "run " + run);
            java.util.List<Path> entries;
            try (var list = Files.list(cache)) {
                entries = list.toList();
            }
            assertEquals(1, entries.size(), entries.toString());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(entries.get(0))));
            // the same file (a rewrite renames a new one into place); its time is touched by each use
            Object t = Files.readAttributes(entries.get(0), java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            if (written != null) {
                assertEquals(written, t, "the second run read the entry, it did not write it again");
            }
            written = t;
        }
    }

    /**
     * verify through the launcher: the native verifier answers the proof the launcher's prove wrote
     * and a tampered copy (CUZK_VERIFY=native: nothing else may), the Java command gives the same
     * answers (CUZK_VERIFY=java), and a malformed proof, which the native program declines, gets
     * the Java command's one line and exit 2 by default; with CUZK_VERIFY=native it is an error
     * saying the native verifier did not answer.
     */
    @Test
    void verifyAnswersNativelyAndLeavesMalformedFilesToJava(@TempDir Path work) throws IOException, InterruptedException {
        Path sample = repo().resolve("samples/poseidon-bn254");
        String vk = sample.resolve("verification_key.json").toString();
        Path proof = work.resolve("proof.json"), pub = work.resolve("public.json");
        String[] prove = {"prove", "-q", sample.resolve("circuit.zkey").toString(), sample.resolve("witness.wtns").toString(), proof.toString(),
                pub.toString()};
        assertEquals(0, launch(null, prove)[0], "prove");
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ArrayNode signals = (com.fasterxml.jackson.databind.node.ArrayNode) json.readTree(pub.toFile());
        signals.set(0, new java.math.BigInteger(signals.get(0).asText()).add(java.math.BigInteger.ONE).toString());
        Path tampered = work.resolve("tampered-public.json");
        Files.writeString(tampered, signals.toString());
        com.fasterxml.jackson.databind.node.ObjectNode offCurve = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(proof.toFile());
        ((com.fasterxml.jackson.databind.node.ArrayNode) offCurve.get("pi_a")).set(1, "1");
        Path malformed = work.resolve("off-curve-proof.json");
        Files.writeString(malformed, offCurve.toString());
        for (String mode : new String[] {"native", "java", null}) {
            Object[] ok = launch(mode, "verify", vk, pub.toString(), proof.toString());
            assertEquals(0, ok[0], mode + ": " + ok[1] + ok[2]);
            assertEquals("OK!\n", ok[1], mode);
            assertEquals("", ok[2], mode);
            Object[] invalid = launch(mode, "verify", vk, tampered.toString(), proof.toString());
            assertEquals(1, invalid[0], mode + ": " + invalid[1] + invalid[2]);
            assertEquals("Invalid proof\n", invalid[1], mode);
            assertEquals("", invalid[2], mode);
            Object[] bad = launch(mode, "verify", vk, pub.toString(), malformed.toString());
            assertEquals(2, bad[0], mode + ": " + bad[1] + bad[2]);
            assertEquals("", bad[1], mode);
            String expected = "native".equals(mode) ? "cuzk verify: the native verifier (" : "cuzk verify: " + malformed + ": pi_a: not a valid bn254 G1 point";
            assertTrue(((String) bad[2]).startsWith(expected) && ((String) bad[2]).strip().lines().count() == 1, mode + ": " + bad[2]);
            // -q (before or after the files) or --quiet: the exit status alone, by the same paths
            Object[] quiet = launch(mode, "verify", "-q", vk, pub.toString(), proof.toString());
            assertEquals(List.of(0, "", ""), List.of(quiet), mode + " -q");
            Object[] quietInvalid = launch(mode, "verify", vk, tampered.toString(), proof.toString(), "--quiet");
            assertEquals(List.of(1, "", ""), List.of(quietInvalid), mode + " --quiet");
            Object[] quietBad = launch(mode, "verify", "-q", vk, pub.toString(), malformed.toString());
            assertEquals(2, quietBad[0], mode + " -q: " + quietBad[2]);
            assertEquals("", quietBad[1], mode);
            assertTrue(((String) quietBad[2]).startsWith(expected), mode + " -q: " + quietBad[2]);
        }
        // other options, and several proofs, are the Java command's even under CUZK_VERIFY=native
        Object[] verbose = launch("native", "verify", "--verbose", vk, pub.toString(), proof.toString());
        assertEquals(List.of(0, "OK!\n", ""), List.of(verbose), "--verbose");
        Object[] twice = launch("native", "verify", vk, pub.toString(), proof.toString(), tampered.toString(), proof.toString());
        assertEquals(1, twice[0], twice[1] + " " + twice[2]);
    }

    /**
     * The daemon's container image (deploy/Containerfile, whose image CI cannot build) lays out the
     * files its final stage copies from the build: every source it names exists after the build,
     * and in that layout, made here under a temporary root (its COPY and RUN ln -s lines applied as
     * written), bin/cuzk verify answers through the native verifier with the library it finds beside
     * itself, not the build tree's.
     */
    @Test
    void theContainerImageLayoutVerifiesNatively(@TempDir Path work) throws IOException, InterruptedException {
        List<String> lines = Files.readAllLines(repo().resolve("deploy/Containerfile"));
        int last = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("FROM ")) {
                last = i;
            }
        }
        Path root = work.resolve("image");
        java.util.function.Function<String, Path> in = abs -> root.resolve(abs.substring(1));
        boolean verifier = false;
        for (String line : lines.subList(last, lines.size())) {
            String[] w = line.strip().split("\\s+");
            if (w.length == 4 && w[0].equals("COPY") && w[1].equals("--from=build") && w[2].startsWith("/src/")) {
                Path from = repo().resolve(w[2].substring("/src/".length()));
                assertTrue(Files.exists(from), line + ": " + from + " is not there after the build");
                Path to = in.apply(w[3]);
                Files.createDirectories(to.getParent());
                if (Files.isDirectory(from)) {
                    Files.createSymbolicLink(to, from); // the jars and libraries as they are (not run from here)
                } else {
                    Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES); // run from here: a copy
                }
                verifier |= w[2].endsWith("/cuzk_verify");
            } else if (w.length == 5 && w[0].equals("RUN") && w[1].equals("ln") && w[2].equals("-s")) {
                Files.createDirectories(in.apply(w[4]).getParent());
                Files.createSymbolicLink(in.apply(w[4]), in.apply(w[3]));
            }
        }
        assertTrue(verifier, "the image copies the native verifier");
        Path sample = repo().resolve("samples/poseidon-bn254");
        Path proof = work.resolve("proof.json"), pub = work.resolve("public.json");
        assertEquals(0, launch(null, "prove", "-q", sample.resolve("circuit.zkey").toString(), sample.resolve("witness.wtns").toString(),
                proof.toString(), pub.toString())[0], "prove");
        ProcessBuilder pb = new ProcessBuilder(in.apply("/opt/cuzk/bin/cuzk").toString(), "verify", sample.resolve("verification_key.json")
                .toString(), pub.toString(), proof.toString()).redirectErrorStream(true);
        pb.environment().put("CUZK_VERIFY", "native"); // no Java to fall back to: the native program answers or the command fails
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("OK!\n", out);
    }

    /** bin/cuzk with CUZK_VERIFY set to mode (null: unset): its exit status, stdout and stderr. */
    private static Object[] launch(String mode, String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = repo().resolve("bin/cuzk").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE);
        pb.environment().remove("CUZK_VERIFY");
        if (mode != null) {
            pb.environment().put("CUZK_VERIFY", mode);
        }
        Process p = pb.start();
        java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Object[] {p.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8)};
    }

    /**
     * The launcher finds its installation through a symlink (as when linked into ~/bin) and keeps
     * the caller's working folder for relative arguments.
     */
    @Test
    void aSymlinkToTheLauncherWorksFromAnyFolder(@TempDir Path work) throws IOException, InterruptedException {
        Path link = Files.createSymbolicLink(work.resolve("cuzk"), repo().resolve("bin/cuzk"));
        Path sample = repo().resolve("samples/poseidon-bn254");
        Files.copy(sample.resolve("circuit.zkey"), work.resolve("c.zkey"));
        Files.copy(sample.resolve("witness.wtns"), work.resolve("w.wtns"));
        Process p = new ProcessBuilder(link.toString(), "prove", "c.zkey", "w.wtns", "p.json", "pub.json").directory(work.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err);
        assertTrue(Files.isRegularFile(work.resolve("p.json")) && Files.isRegularFile(work.resolve("pub.json")), out);
        assertFalse(err.contains("][error]") || err.contains("][warning]"), err);
    }

    /**
     * The launcher loads the library the build unpacked next to the jar where it is, not a copy
     * extracted from the jar (which costs each command a jar opening and a CRC check).
     */
    @Test
    void theLauncherLoadsTheUnpackedLibraryWhereItIs() throws IOException, InterruptedException {
        Path unpacked = repo().resolve("cli/target/native/libcuzk.so");
        assertTrue(Files.isRegularFile(unpacked), "the package phase unpacks " + unpacked);
        Process p = start("info");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err);
        assertTrue(out.contains("library:  " + unpacked.toRealPath()), out);
    }

    /**
     * With no cache (-Dcuzk.native.cache=none) the packed library is checked and loaded from memory:
     * nothing is written to the temporary folder or anywhere else, so nothing can be left behind
     * when a command ends with Runtime.halt.
     */
    @Test
    void withoutACacheThePackedLibraryIsLoadedFromMemoryAndNothingIsWritten(@TempDir Path tmp) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path home = Files.createDirectory(tmp.resolve("home"));
        Path temp = Files.createDirectory(tmp.resolve("temp"));
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Dcuzk.native.cache=none", "-Djava.io.tmpdir=" + temp,
                "-Duser.home=" + home, "-jar", repo().resolve("cli/target/cuzk-cli.jar").toString(), "info");
        pb.environment().remove("XDG_CACHE_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err);
        assertTrue(out.contains("library:  jar:file:") && out.contains("libcuzk.so (checked, loaded from memory)"), out);
        for (Path d : new Path[] {home, temp}) {
            try (var left = Files.list(d)) {
                assertEquals(0, left.count(), "the command wrote into " + d);
            }
        }
    }

    /** An input larger than the heap: one line saying so and how to give more, status 3, no stack trace. */
    @Test
    void anInputLargerThanTheHeapIsOneLine() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(repo().resolve("bin/cuzk").toString(), "msm", "--curve", "bn254", "--group", "g1");
        pb.environment().put("CUZK_JAVA_OPTS", "-Xmx32m");
        Process p = pb.start();
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (var in = p.getOutputStream()) {
                byte[] zeros = "0".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < 64; i++) {
                    in.write(zeros);
                }
            } catch (IOException e) {
                // the command stopped reading: what is tested
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        feeder.join(10_000);
        assertEquals(3, p.exitValue(), out + err);
        assertEquals("cuzk msm: out of memory (Java heap space): give the JVM more with CUZK_JAVA_OPTS=-Xmx...", err.strip());
    }

    /**
     * An output file its owner made read-only is refused and left as it was, as any other writer
     * leaves it (outputs are written beside their target and renamed over it, which the target's
     * own permissions would not stop); once writable again, it is written. Root may write any
     * file, so as root the command runs as nobody (setpriv), in folders nobody owns.
     */
    @Test
    void aReadOnlyOutputIsLeftAsItWas(@TempDir Path work) throws IOException, InterruptedException {
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        Path dir = Files.createDirectories(work.resolve("out")), home = Files.createDirectories(work.resolve("home"));
        Path vk = dir.resolve("verification_key.json");
        Files.writeString(vk, "precious\n");
        java.util.List<String> cmd = new java.util.ArrayList<>();
        if (root) {
            Files.setPosixFilePermissions(work, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
            for (Path p : new Path[] {dir, home, vk}) {
                Files.setAttribute(p, "unix:uid", 65534);
                Files.setAttribute(p, "unix:gid", 65534);
            }
            cmd.addAll(java.util.List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        Files.setPosixFilePermissions(vk, java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--"));
        cmd.addAll(java.util.List.of(repo().resolve("bin/cuzk").toString(), "export-vk",
                repo().resolve("samples/poseidon-bn254/circuit.zkey").toString(), vk.toString()));
        for (int run = 0; run < 2; run++) {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("HOME", home.toString());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            if (run == 0) {
                assertEquals(1, p.exitValue(), out + err);
                assertEquals("cuzk export-vk: " + vk + ": cannot be written: permission denied (the file exists and is not writable)",
                        err.strip());
                assertEquals("precious\n", Files.readString(vk));
                assertEquals("r--r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(vk)));
                Files.setPosixFilePermissions(vk, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            } else {
                assertEquals(0, p.exitValue(), out + err);
                assertEquals(Files.readString(repo().resolve("samples/poseidon-bn254/verification_key.json")), Files.readString(vk),
                        "the sample's verification key, byte for byte as snarkjs exported it");
            }
        }
    }

    @Test
    void msmDemoChecksItself() throws IOException, InterruptedException {
        Process p = start("msm-demo", "--log-size", "12");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("check against (sum k_i*m_i)*G: OK"), out);
    }

    /** 2·G on BN254 G1 as one (point, scalar) pair, and its expected encoding. */
    static final class Point2 {
        final String hex;
        final String expected;

        Point2() {
            HexFormat h = HexFormat.of();
            hex = h.formatHex(Points.generator(Curve.BN254, Group.G1).encode(Encoding.EIP196)) + "0".repeat(63) + "2";
            expected = h.formatHex(Points.multiply(Points.generator(Curve.BN254, Group.G1), BigInteger.TWO).encode(Encoding.EIP196));
        }
    }
}
