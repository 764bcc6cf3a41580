package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.NativeLibraryAccess;
import io.cuzk.internal.ffi.cuzk_h;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading the library: in place, from a jar through the cache, from an override path, and the messages when it is missing. */
class NativeLibraryTest {
    @Test
    void loadsThePackedLibraryAndReportsItself() {
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        assertEquals(cuzk_h.CUZK_ABI_VERSION(), info.abiVersion());
        assertTrue(info.hardwareThreads() >= 1);
        assertTrue(info.maxNttLogSize() >= 22);
        assertTrue(Files.isRegularFile(info.path()), info.path().toString());
        assertTrue(info.version().startsWith("0."), info.version());
    }

    @Test
    void aMissingOverrideNamesThePropertyAndThePath() {
        NativeLibraryException e = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryAccess.locate("/nonexistent/libcuzk.so", NativeLibrary.platform(), getClass().getClassLoader()));
        assertTrue(e.getMessage().contains(NativeLibrary.PATH_PROPERTY), e.getMessage());
        assertTrue(e.getMessage().contains("/nonexistent/libcuzk.so"), e.getMessage());
    }

    @Test
    void anUnpackedPlatformNamesTheResourceAndWhatIsPacked() {
        NativeLibraryException e = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryAccess.locate(null, "plan9-mips", getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("io/cuzk/native/plan9-mips/libcuzk.so"), e.getMessage());
        assertTrue(e.getMessage().contains(NativeLibrary.platform()), "names the packed platforms: " + e.getMessage());
    }

    @Test
    void aClassPathWithoutTheLibrarySaysSo() throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            NativeLibraryException e = assertThrows(NativeLibraryException.class,
                    () -> NativeLibraryAccess.locate("", NativeLibrary.platform(), empty));
            assertTrue(e.getMessage().contains("no native library is packed"), e.getMessage());
        }
    }

    @Test
    void aLibraryOnThePlainClassPathIsLoadedWhereItIs() throws Exception {
        URL url = getClass().getClassLoader().getResource(NativeLibrary.RESOURCE_ROOT + NativeLibrary.platform() + "/libcuzk.so");
        assertEquals("file", url.getProtocol(), "the tests run from the build's class folders");
        assertEquals(Path.of(url.toURI()), NativeLibraryAccess.locate(null, NativeLibrary.platform(), getClass().getClassLoader()));
    }

    /** A jar holding payload as io/cuzk/native/test-platform/libcuzk.so, and a loader over it. */
    private static URLClassLoader jarWith(Path dir, byte[] payload) throws Exception {
        Path jar = dir.resolve("packed.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(NativeLibrary.RESOURCE_ROOT + "test-platform/libcuzk.so"));
            out.write(payload);
            out.closeEntry();
        }
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    private static byte[] payload() {
        byte[] b = new byte[300_000];
        new Random(5).nextBytes(b);
        return b;
    }

    private static String crcFolder(byte[] b) {
        CRC32 crc = new CRC32();
        crc.update(b);
        return String.format("%08x-%d", crc.getValue(), b.length);
    }

    @Test
    void aPackedLibraryIsExtractedOnceIntoTheCacheAndCheckedOnEveryLoad(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        Path cache = tmp.resolve("cache");
        try (URLClassLoader loader = jarWith(tmp, payload)) {
            URL url = loader.getResource(NativeLibrary.RESOURCE_ROOT + "test-platform/libcuzk.so");
            Path first = NativeLibraryAccess.extract(url, "libcuzk.so", cache);
            assertEquals(cache.resolve(crcFolder(payload)).resolve("libcuzk.so"), first);
            assertArrayEquals(payload, Files.readAllBytes(first));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));

            FileTime written = FileTime.fromMillis(1_000_000_000_000L);
            Files.setLastModifiedTime(first, written);
            assertEquals(first, NativeLibraryAccess.extract(url, "libcuzk.so", cache));
            assertEquals(written, Files.getLastModifiedTime(first), "an intact copy is used as it is");

            byte[] damaged = payload.clone();
            damaged[290_000] ^= 1; // past the first 256 KiB the check reads
            Files.write(first, damaged);
            assertEquals(first, NativeLibraryAccess.extract(url, "libcuzk.so", cache));
            assertArrayEquals(payload, Files.readAllBytes(first), "a copy of the right size with the wrong CRC is replaced");
            try (var files = Files.list(first.getParent())) {
                assertEquals(List.of(first), files.toList(), "no partial copies are left behind");
            }
        }
    }

    @Test
    void aCacheFolderOthersCanWriteIsNotTrusted(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        Path cache = tmp.resolve("cache");
        Path shared = Files.createDirectories(cache.resolve(crcFolder(payload)));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        try (URLClassLoader loader = jarWith(tmp, payload)) {
            URL url = loader.getResource(NativeLibrary.RESOURCE_ROOT + "test-platform/libcuzk.so");
            Path p = NativeLibraryAccess.extract(url, "libcuzk.so", cache);
            assertFalse(p.startsWith(cache), p.toString());
            assertArrayEquals(payload, Files.readAllBytes(p));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p.getParent())));
            try (var files = Files.list(shared)) {
                assertEquals(0, files.count(), "nothing was written into the shared folder");
            }
        }
    }

    @Test
    void withoutACacheAPackedLibraryGoesToAPrivateFolder(@TempDir Path tmp) throws Exception {
        byte[] payload = payload();
        try (URLClassLoader loader = jarWith(tmp, payload)) {
            URL url = loader.getResource(NativeLibrary.RESOURCE_ROOT + "test-platform/libcuzk.so");
            Path p = NativeLibraryAccess.extract(url, "libcuzk.so", null);
            assertArrayEquals(payload, Files.readAllBytes(p));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p.getParent())));
        }
    }
}
