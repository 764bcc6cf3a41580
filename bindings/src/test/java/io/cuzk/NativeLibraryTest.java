package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.NativeLibraryAccess;
import io.cuzk.internal.ffi.cuzk_h;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading the library: in place, from a jar through the cache, from an override path; the checks
 * that keep another user's or a damaged library from running (the cache's folders, the packed
 * SHA-256, the ELF check of a named file), and the messages when something is missing. The race
 * with another process rewriting the cache while libraries load is {@link LoaderRaceTest}.
 */
class NativeLibraryTest {
    static final String PLATFORM = "test-platform";

    @Test
    void loadsThePackedLibraryAndReportsItself() {
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        assertEquals(cuzk_h.CUZK_ABI_VERSION(), info.abiVersion());
        assertTrue(info.hardwareThreads() >= 1);
        assertTrue(info.maxNttLogSize() >= 22);
        assertTrue(Files.isRegularFile(Path.of(info.location())), "the build's own copy, where it is: " + info.location());
        assertTrue(info.version().startsWith("0."), info.version());
    }

    @Test
    void aMissingOverrideNamesThePath() {
        NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(Path.of("/nonexistent/libcuzk.so")));
        assertTrue(e.getMessage().contains("/nonexistent/libcuzk.so") && e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void aNamedFileThatIsNotACompleteLibraryIsRefusedBeforeTheLoaderSeesIt(@TempDir Path tmp) throws Exception {
        Path real = Path.of(Cuzk.libraryInfo().location());
        byte[] lib = Files.readAllBytes(real);
        Path truncated = tmp.resolve("truncated.so");
        Files.write(truncated, Arrays.copyOf(lib, lib.length / 2));
        NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(truncated));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());

        Path headerOnly = tmp.resolve("header.so");
        Files.write(headerOnly, Arrays.copyOf(lib, 40));
        assertTrue(assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(headerOnly)).getMessage()
                .contains("too short"));

        Path text = tmp.resolve("text.so");
        Files.writeString(text, "#!/bin/sh\n".repeat(20));
        assertTrue(assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(text)).getMessage()
                .contains("not an ELF file"));

        Path dir = Files.createDirectory(tmp.resolve("a-folder.so"));
        assertTrue(assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(dir)).getMessage()
                .contains("not a regular file"));

        assertNull(NativeLibraryAccess.elfProblem(lib), "the real library passes the same check");
    }

    @Test
    void aNamedFifoIsRefusedInsteadOfHanging(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("fifo.so");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor());
        NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> NativeLibraryAccess.fromFile(fifo));
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
    }

    @Test
    void anUnpackedPlatformNamesTheResourceAndWhatIsPacked() {
        NativeLibraryException e = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryAccess.packed("libcuzk.so", "plan9-mips", getClass().getClassLoader(), null));
        assertTrue(e.getMessage().contains("io/cuzk/native/plan9-mips/libcuzk.so"), e.getMessage());
        assertTrue(e.getMessage().contains(NativeLibrary.platform()), "names the packed platforms: " + e.getMessage());
    }

    @Test
    void aClassPathWithoutTheLibrarySaysSo() throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            NativeLibraryException e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.packed("libcuzk.so", NativeLibrary.platform(), empty, null));
            assertTrue(e.getMessage().contains("no native library is packed"), e.getMessage());
        }
    }

    /** A jar holding payload as io/cuzk/native/test-platform/libcuzk.so, with the given digest beside it (null: none). */
    static URLClassLoader jarWith(Path dir, byte[] payload, String digest) throws Exception {
        Path jar = dir.resolve("packed-" + Math.abs(new Random().nextInt()) + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(NativeLibrary.RESOURCE_ROOT + PLATFORM + "/libcuzk.so"));
            out.write(payload);
            out.closeEntry();
            if (digest != null) {
                out.putNextEntry(new JarEntry(NativeLibrary.RESOURCE_ROOT + PLATFORM + "/libcuzk.so.sha256"));
                out.write((digest + "\n").getBytes(StandardCharsets.US_ASCII));
                out.closeEntry();
            }
        }
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    static byte[] payload() {
        byte[] b = new byte[300_000];
        new Random(5).nextBytes(b);
        return b;
    }

    static URL entry(URLClassLoader loader) {
        return loader.getResource(NativeLibrary.RESOURCE_ROOT + PLATFORM + "/libcuzk.so");
    }

    @Test
    void aPackedLibraryIsCachedOnceAndItsCopyCheckedOnEveryLoad(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        String sha = NativeLibraryAccess.sha256(payload);
        Path cache = tmp.resolve("cache");
        Path copy = cache.resolve(sha.substring(0, 16)).resolve("libcuzk.so");
        try (URLClassLoader loader = jarWith(tmp, payload, sha)) {
            assertArrayEquals(payload, NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", cache));
            assertArrayEquals(payload, Files.readAllBytes(copy));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.getParent())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)));

            FileTime written = FileTime.fromMillis(1_000_000_000_000L);
            Files.setLastModifiedTime(copy, written);
            Object file = Files.readAttributes(copy, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            assertArrayEquals(payload, NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", cache));
            assertEquals(file, Files.readAttributes(copy, java.nio.file.attribute.BasicFileAttributes.class).fileKey(),
                    "an intact copy is used as it is, not written again");
            assertTrue(Files.getLastModifiedTime(copy).compareTo(written) > 0, "its time says it was used now (what pruning keeps)");

            byte[] damaged = payload.clone();
            damaged[290_000] ^= 1;
            Files.write(copy, damaged);
            assertArrayEquals(payload, NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", cache),
                    "the damaged copy's bytes are never what is returned");
            assertArrayEquals(payload, Files.readAllBytes(copy), "and it is replaced");

            // another file linked in its place is not followed, nor written through
            Path elsewhere = Files.write(tmp.resolve("elsewhere"), damaged);
            Files.delete(copy);
            Files.createSymbolicLink(copy, elsewhere);
            assertArrayEquals(payload, NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", cache));
            assertArrayEquals(damaged, Files.readAllBytes(elsewhere), "the link's target is untouched");
            assertFalse(Files.isSymbolicLink(copy), "the link was replaced by a copy of our own");
            try (var files = Files.list(copy.getParent())) {
                assertEquals(List.of(copy), files.toList(), "no partial copies are left behind");
            }
        }
    }

    /**
     * Each library build (each upgrade) gets its own folder; writing a new one keeps the four
     * copies used last (the new one among them) and removes the rest with their folders, leaving
     * other files and folders alone.
     */
    @Test
    void theCacheKeepsTheVersionsUsedLast(@TempDir Path tmp) throws Exception {
        Path cache = tmp.resolve("cache");
        List<String> shas = new java.util.ArrayList<>();
        long now = System.currentTimeMillis(), hour = 3_600_000;
        for (int v = 0; v < 6; v++) {
            byte[] payload = new byte[1000];
            new Random(100 + v).nextBytes(payload);
            String sha = NativeLibraryAccess.sha256(payload);
            shas.add(sha);
            try (URLClassLoader loader = jarWith(tmp, payload, sha)) {
                assertArrayEquals(payload, NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", cache));
            }
            Path copy = cache.resolve(sha.substring(0, 16)).resolve("libcuzk.so");
            // version 1 was used last of the old ones, then 4, 3, 2; version 0 longest ago
            long[] used = {10, 1, 4, 3, 2};
            if (v < 5) {
                Files.setLastModifiedTime(copy, FileTime.fromMillis(now - used[v] * hour));
            }
            if (v == 2) { // another library's copy beside a version that goes, and an unrelated folder: never touched
                Files.write(cache.resolve(sha.substring(0, 16)).resolve("libcuzk_cuda.so"), new byte[10]);
                Files.createDirectories(cache.resolve("notes"));
            }
        }
        java.util.Set<String> left;
        try (var dirs = Files.list(cache)) {
            left = dirs.map(d -> d.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        }
        // kept: the new one (5) and the three used last (1, 4, 3); 0 removed with its folder, 2's copy removed and its folder
        // kept for the other library's file
        assertEquals(java.util.Set.of(shas.get(5).substring(0, 16), shas.get(1).substring(0, 16), shas.get(4).substring(0, 16),
                shas.get(3).substring(0, 16), shas.get(2).substring(0, 16), "notes"), left);
        try (var files = Files.list(cache.resolve(shas.get(2).substring(0, 16)))) {
            assertEquals(List.of("libcuzk_cuda.so"), files.map(f -> f.getFileName().toString()).toList());
        }
        for (int v : new int[] {1, 3, 4, 5}) {
            assertTrue(Files.exists(cache.resolve(shas.get(v).substring(0, 16)).resolve("libcuzk.so")), "version " + v);
        }
    }

    @Test
    void aCacheOtherUsersCouldWriteIntoOrSwapIsRefusedWithTheReason(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        String sha = NativeLibraryAccess.sha256(payload);
        try (URLClassLoader loader = jarWith(tmp, payload, sha)) {
            Path open = Files.createDirectory(tmp.resolve("open"));
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
            NativeLibraryException e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", open.resolve("cache")));
            assertTrue(e.getMessage().contains(open + " is writable by other users") && e.getMessage().contains("cuzk.native.cache=none"),
                    e.getMessage());
            try (var files = Files.list(open)) {
                assertEquals(0, files.count(), "nothing was created in the open folder");
            }

            Path target = Files.createDirectory(tmp.resolve("target"));
            Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
            e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", link.resolve("cache")));
            assertTrue(e.getMessage().contains(link + " is a symbolic link"), e.getMessage());

            Path theirs = Files.createDirectory(tmp.resolve("theirs"));
            Files.setAttribute(theirs, "unix:uid", 65534); // nobody's
            e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", theirs));
            assertTrue(e.getMessage().contains(theirs + " belongs to user 65534"), e.getMessage());
        }
    }

    @Test
    void aJarWhoseLibraryDoesNotMatchItsDigestIsNotLoaded(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        String wrong = NativeLibraryAccess.sha256(new byte[] {1});
        try (URLClassLoader loader = jarWith(tmp, payload, wrong)) {
            NativeLibraryException e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.checkedBytes(entry(loader), wrong, "libcuzk.so", null));
            assertTrue(e.getMessage().contains("does not match the SHA-256"), e.getMessage());
        }
        try (URLClassLoader loader = jarWith(tmp, payload, null)) {
            NativeLibraryException e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.packed("libcuzk.so", PLATFORM, loader, null));
            assertTrue(e.getMessage().contains("without its SHA-256"), e.getMessage());
        }
    }

    @Test
    void withoutACacheNothingIsWritten(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        String sha = NativeLibraryAccess.sha256(payload);
        try (URLClassLoader loader = jarWith(tmp, payload, sha)) {
            assertNotNull(NativeLibraryAccess.checkedBytes(entry(loader), sha, "libcuzk.so", null));
            try (var files = Files.list(tmp)) {
                assertEquals(1, files.count(), "only the test's jar: " + tmp);
            }
        }
    }
}
