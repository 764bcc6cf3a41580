package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The native verifier bin/cuzk's verify runs first (native/cuda/tools/verify.cpp, built with the
 * library): exit 0 and "OK!", exit 1 and "Invalid proof", or {@link #DECLINED} with nothing
 * printed, when the Java command is to answer.
 */
final class NativeVerifier {
    static final int DECLINED = 10;

    private NativeVerifier() {}

    record Result(int status, String out, String err) {}

    static Path tool() {
        Path t = Path.of(System.getProperty("cuzk.repo.dir", "..")).resolve("native/cuda/target/build/cuzk_verify").toAbsolutePath()
                .normalize();
        assertTrue(Files.isExecutable(t), "the native build makes " + t + " with the library");
        return t;
    }

    static Result run(Path vk, Path publicJson, Path proofJson) {
        try {
            Process p = new ProcessBuilder(tool().toString(), vk.toString(), publicJson.toString(), proofJson.toString()).start();
            p.getOutputStream().close();
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.getErrorStream().readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "cuzk_verify finished");
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
