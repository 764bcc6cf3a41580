package io.cuzk.internal;

import java.net.URL;
import java.nio.file.Path;

/** Test access to the loader's package-private steps. */
public final class NativeLibraryAccess {
    private NativeLibraryAccess() {}

    /** Loads a library file where it is (after its checks); returns where it came from. */
    public static String fromFile(Path file) {
        return NativeLibrary.fromFile(file, "the test").location();
    }

    /** Loads the packed library of a platform; returns where it came from. */
    public static String packed(String fileName, String platform, ClassLoader loader, Path cache) {
        return NativeLibrary.packed(fileName, platform, loader, cache).location();
    }

    /** The checked bytes of a packed library, and where they were cached (null: none). */
    public static byte[] checkedBytes(URL url, String sha256, String fileName, Path cache) {
        return NativeLibrary.checkedBytes(url, sha256, fileName, cache).bytes();
    }

    public static String sha256(byte[] bytes) {
        return NativeLibrary.sha256(bytes);
    }

    /** What the ELF check finds wrong with a library image, or null. */
    public static String elfProblem(byte[] image) {
        return Elf.problem(java.nio.ByteBuffer.wrap(image));
    }
}
