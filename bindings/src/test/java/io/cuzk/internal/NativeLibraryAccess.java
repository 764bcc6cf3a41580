package io.cuzk.internal;

import java.net.URL;
import java.nio.file.Path;

/** Test access to the loader's package-private resolution. */
public final class NativeLibraryAccess {
    private NativeLibraryAccess() {}

    public static Path locate(String override, String platform, ClassLoader loader) {
        return NativeLibrary.locate(override, platform, loader);
    }

    public static Path extract(URL url, String fileName, Path cache) {
        return NativeLibrary.extract(url, fileName, cache);
    }
}
