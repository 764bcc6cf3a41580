package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the reference scripts of tests/node with Node.js. The npm packages are installed by the
 * build (exec-maven-plugin runs npm install); a missing installation fails the test with the
 * command that fixes it, never skips it.
 */
final class Node {
    private Node() {}

    static Path dir() {
        Path d = Path.of(System.getProperty("cuzk.node.dir", "node")).toAbsolutePath();
        assertTrue(Files.isDirectory(d.resolve("node_modules/@noble/curves")),
                "the reference packages are not installed in " + d + ": run 'npm install' there (mvn verify does it)");
        return d;
    }

    record Result(int exit, String out, String err) {}

    /** Runs {@code node script args...} in the node folder and returns its stdout; fails on a non-zero exit. */
    static String run(String script, String... args) {
        Result r = exec(script, args);
        assertEquals(0, r.exit, "node " + script + " " + String.join(" ", args) + " failed: " + r.err + r.out);
        return r.out;
    }

    /** The snarkjs command line, as users run it. */
    static Result snarkjs(String... args) {
        return exec("node_modules/snarkjs/build/cli.cjs", args);
    }

    /** Runs {@code node script args...} in the node folder. */
    static Result exec(String script, String... args) {
        List<String> cmd = new ArrayList<>(List.of("node", script));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir().toFile()).start();
            p.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            String out = read(p.getInputStream());
            assertTrue(p.waitFor(10, TimeUnit.MINUTES), "node " + script + " timed out");
            return new Result(p.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new AssertionError("could not start node (is Node.js installed and on the PATH?): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
