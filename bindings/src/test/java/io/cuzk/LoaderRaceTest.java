package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.NativeLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.commons.lang3.Validate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the loader, in child JVMs that load the packed library from a jar through a cache,
 * while a malicious library (whose constructor, if it ever ran, would leave a marker file) is
 * put where the loader reads: by this user, swapping the cached copy for it (and for a link to it)
 * in a loop while the loads run; and by another user (nobody), through a cache under a folder
 * that user can write into. The old loader checked only the last folder, followed links, and
 * loaded by path after its check; the marker must never appear now.
 */
class LoaderRaceTest {
    static Path jar, evil, marker;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void prepare() throws Exception {
        Path real = Path.of(Cuzk.libraryInfo().location());
        byte[] lib = Files.readAllBytes(real);
        jar = tmp.resolve("packed.jar");
        String dir = NativeLibrary.RESOURCE_ROOT + NativeLibrary.platform() + "/";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(dir + "libcuzk.so"));
            out.write(lib);
            out.closeEntry();
            out.putNextEntry(new JarEntry(dir + "libcuzk.so.sha256"));
            out.write((io.cuzk.internal.NativeLibraryAccess.sha256(lib) + "\n").getBytes(StandardCharsets.US_ASCII));
            out.closeEntry();
        }
        marker = tmp.resolve("pwned");
        Path src = tmp.resolve("evil.c");
        Files.writeString(src, """
                #include <stdio.h>
                #include <stdint.h>
                const uint32_t cuzk_abi_version_value = ABI_VERSION;
                __attribute__((constructor)) static void pwn(void) {
                    FILE *f = fopen(MARKER, "w");
                    if (f) { fputs("an attacker's library ran\\n", f); fclose(f); }
                }
                """.replace("ABI_VERSION", String.valueOf(io.cuzk.internal.ffi.cuzk_h.CUZK_ABI_VERSION()))); // passes the version check
        evil = tmp.resolve("evil.so");
        Process cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-DMARKER=\"" + marker + "\"", "-o", evil.toString(), src.toString())
                .redirectErrorStream(true).start();
        String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "compiling the attacker's library failed: " + out);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody reads evil.so below
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    record Result(int exit, String out) {}

    /** A child JVM loading the library from the jar with the given cache folder. */
    static Result load(Path cache) throws Exception {
        String cp = String.join(":", jar.toString(), location(LoadProbe.class), location(Cuzk.class), location(Validate.class));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dcuzk.native.cache=" + cache, "-cp", cp, "io.cuzk.LoadProbe").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM hung");
        return new Result(p.exitValue(), out);
    }

    static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void theSameUserSwappingTheCachedCopyInALoopNeverGetsItLoaded() throws Exception {
        Path cache = tmp.resolve("cache");
        Result first = load(cache);
        assertEquals(0, first.exit(), first.out());
        Path copy;
        try (var dirs = Files.list(cache)) {
            copy = dirs.findFirst().orElseThrow().resolve("libcuzk.so");
        }
        assertTrue(Files.isRegularFile(copy), "the first load cached the library");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger swaps = new AtomicInteger();
        Thread attacker = new Thread(() -> {
            Path staged = copy.resolveSibling("staged.so");
            while (running.get()) {
                try {
                    if (swaps.incrementAndGet() % 2 == 0) {
                        Files.copy(evil, staged, StandardCopyOption.REPLACE_EXISTING);
                        Files.move(staged, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    } else {
                        Files.deleteIfExists(staged);
                        Files.createSymbolicLink(staged, evil);
                        Files.move(staged, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    }
                } catch (IOException e) {
                    // the loader replaced it meanwhile: swap again
                }
            }
        });
        attacker.start();
        List<Result> results = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                results.add(load(cache));
            }
        } finally {
            running.set(false);
            attacker.join(10_000);
        }
        assertTrue(swaps.get() > 8, "the swaps ran during the loads: " + swaps);
        for (Result r : results) {
            assertEquals(0, r.exit(), r.out());
            assertTrue(r.out().contains("loaded"), r.out());
        }
        assertFalse(Files.exists(marker), "the attacker's library ran");
    }

    @Test
    void anotherUserCannotPlantALibraryThroughAFolderTheyControl() throws Exception {
        Assumptions.assumeTrue(isRoot() && hasSetpriv(),
                "needs root and setpriv to act as a second user (nobody); the same-user race test still runs");
        // a folder everyone may write into (not sticky): nobody keeps putting the library in the cache under it
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        // a sticky one, like /tmp: nobody made the cache folder first, with the library inside
        Path sticky = Files.createDirectory(tmp.resolve("sticky"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        String script = "mkdir -p " + sticky + "/cache/planted; cp " + evil + " " + sticky + "/cache/planted/libcuzk.so;"
                + " end=$(($(date +%s) + 20)); while [ $(date +%s) -lt $end ]; do mkdir -p " + shared + "/cache;"
                + " for d in " + shared + "/cache/*/; do cp " + evil + " \"$d/libcuzk.so\" 2>/dev/null; done; done";
        Process nobody = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script).start();
        try {
            Thread.sleep(500);
            Result viaShared = load(shared.resolve("cache"));
            assertEquals(3, viaShared.exit(), viaShared.out());
            assertTrue(viaShared.out().contains("cannot be trusted") && viaShared.out().contains("writable by other users"), viaShared.out());
            Result viaSticky = load(sticky.resolve("cache"));
            assertEquals(3, viaSticky.exit(), viaSticky.out());
            assertTrue(viaSticky.out().contains("belongs to user 65534"), viaSticky.out());
        } finally {
            nobody.destroyForcibly();
            nobody.waitFor(10, TimeUnit.SECONDS);
        }
        assertFalse(Files.exists(marker), "the attacker's library ran");
    }

    static boolean isRoot() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }

    static boolean hasSetpriv() {
        try {
            return new ProcessBuilder("setpriv", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
