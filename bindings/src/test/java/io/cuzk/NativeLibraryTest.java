package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.NativeLibraryAccess;
import io.cuzk.internal.cuzk_h;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** Loading the library: from the jar, from an override path, and the messages when it is missing. */
class NativeLibraryTest {
    @Test
    void loadsThePackedLibraryAndReportsItself() {
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        assertEquals(cuzk_h.CUZK_ABI_VERSION, info.abiVersion());
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
    void extractsIntoAPrivateFolder() throws Exception {
        Path p = NativeLibraryAccess.locate(null, NativeLibrary.platform(), getClass().getClassLoader());
        assertTrue(Files.size(p) > 100_000);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p.getParent())));
    }
}
