package io.cuzk.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import io.cuzk.NativeLibraryException;
import java.util.Locale;
import org.apache.commons.lang3.SystemUtils;

/**
 * Finds and loads libcuzk. By default the copy packed in this jar under
 * {@code io/cuzk/native/<os>-<arch>/} is extracted into a private temporary folder (owner-only
 * permissions, removed at exit) and loaded from there. The system property {@value #PATH_PROPERTY}
 * names another copy instead, for example a build of the library with different options.
 *
 * <p>Every failure says what was missing and where it looked.
 */
public final class NativeLibrary {
    /** System property naming a libcuzk file to load instead of the packed one. */
    public static final String PATH_PROPERTY = "cuzk.library.path";
    /** Resource folder, inside the jar, holding one subfolder per platform. */
    public static final String RESOURCE_ROOT = "io/cuzk/native/";
    /** System property naming a libcuzk_cuda file to load instead of the packed one. */
    public static final String CUDA_PATH_PROPERTY = "cuzk.cuda.library.path";
    static final String CUDA_FILE = "libcuzk_cuda.so";

    private NativeLibrary() {}

    private static final class Holder {
        static final Loaded LOADED = load();
    }

    private static final class CudaHolder {
        static final Object LOADED = loadCuda();
    }

    /** The library's symbols, loaded on first use; throws {@link NativeLibraryException} if it cannot be. */
    public static SymbolLookup lookup() {
        return Holder.LOADED.lookup();
    }

    /** Where the loaded library came from. */
    public static Path path() {
        return Holder.LOADED.path();
    }

    /**
     * The symbols of libcuzk_cuda, the CUDA backend, loaded on first use after the CUDA runtime
     * (which it links). Throws {@link NativeLibraryException} saying what is missing: this jar's
     * build had no nvcc, or the CUDA runtime is not installed.
     */
    public static SymbolLookup cudaLookup() {
        if (CudaHolder.LOADED instanceof SymbolLookup l) {
            return l;
        }
        throw (NativeLibraryException) CudaHolder.LOADED;
    }

    /** Whether libcuzk_cuda could be loaded (it may still find no device). */
    public static boolean cudaAvailable() {
        return CudaHolder.LOADED instanceof SymbolLookup;
    }

    private static Object loadCuda() {
        try {
            CudaLibrary.lookup(); // libcudart first: libcuzk_cuda needs it
        } catch (NativeLibraryException e) {
            return e;
        }
        String override = System.getProperty(CUDA_PATH_PROPERTY);
        Path file;
        if (override != null && !override.isBlank()) {
            file = Path.of(override);
        } else {
            String platform = platform();
            String resource = RESOURCE_ROOT + platform + "/" + CUDA_FILE;
            URL url = NativeLibrary.class.getClassLoader().getResource(resource);
            if (url == null) {
                return new NativeLibraryException("cuzk: this build has no CUDA backend: " + resource
                        + " is not in the jar (nvcc was not found when it was built)");
            }
            file = extract(url, CUDA_FILE);
        }
        try {
            return SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            return new NativeLibraryException("cuzk: could not load the CUDA backend " + file + ": " + e.getMessage(), e);
        }
    }

    record Loaded(SymbolLookup lookup, Path path) {}

    private static Loaded load() {
        Path file = locate(System.getProperty(PATH_PROPERTY), platform(), NativeLibrary.class.getClassLoader());
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new NativeLibraryException("cuzk: could not load the native library " + file + ": " + e.getMessage(), e);
        }
        checkAbi(lookup, file);
        return new Loaded(lookup, file);
    }

    /** Refuses a library of another ABI version: its structs or signatures would not match. */
    private static void checkAbi(SymbolLookup lookup, Path file) {
        MemorySegment fn = lookup.find("cuzk_abi_version").orElseThrow(() -> new NativeLibraryException(
                "cuzk: " + file + " has no cuzk_abi_version symbol: it is not a cuzk library"));
        int abi;
        try {
            abi = (int) Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
        } catch (Throwable t) {
            throw new NativeLibraryException("cuzk: calling cuzk_abi_version in " + file + " failed: " + t, t);
        }
        if (abi != cuzk_h.CUZK_ABI_VERSION) {
            throw new NativeLibraryException("cuzk: " + file + " implements ABI version " + abi + " but these bindings need "
                    + cuzk_h.CUZK_ABI_VERSION + "; use the library built with this jar");
        }
    }

    /**
     * The folder name of the running platform, such as {@code linux-x86_64}.
     */
    public static String platform() {
        String os;
        if (SystemUtils.IS_OS_LINUX) {
            os = "linux";
        } else if (SystemUtils.IS_OS_MAC) {
            os = "macos";
        } else if (SystemUtils.IS_OS_WINDOWS) {
            os = "windows";
        } else {
            os = SystemUtils.OS_NAME.toLowerCase(Locale.ROOT).replace(' ', '_');
        }
        String arch = SystemUtils.OS_ARCH.toLowerCase(Locale.ROOT);
        arch = switch (arch) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return os + "-" + arch;
    }

    /** File name of the library on a platform. */
    static String libraryFileName(String platform) {
        if (platform.startsWith("windows")) {
            return "cuzk.dll";
        }
        return platform.startsWith("macos") ? "libcuzk.dylib" : "libcuzk.so";
    }

    /**
     * Resolves the file to load: the override path if given, else the jar's copy for the platform,
     * extracted. Package-private for the loader tests.
     */
    static Path locate(String override, String platform, ClassLoader loader) {
        if (override != null && !override.isBlank()) {
            Path p = Path.of(override);
            if (!Files.isRegularFile(p)) {
                throw new NativeLibraryException("cuzk: the system property " + PATH_PROPERTY + " names " + p.toAbsolutePath()
                        + ", which is not a file; point it at a libcuzk build or remove it to use the copy in the jar");
            }
            return p;
        }
        String resource = RESOURCE_ROOT + platform + "/" + libraryFileName(platform);
        URL url = loader == null ? null : loader.getResource(resource);
        if (url == null) {
            throw new NativeLibraryException("cuzk: no native library for platform " + platform + ": the resource " + resource
                    + " is not on the class path (looked with " + loader + "); this jar was built for "
                    + packedPlatforms(loader) + ". Build cuzk-java on this platform or set -D" + PATH_PROPERTY
                    + "=/path/to/" + libraryFileName(platform));
        }
        return extract(url, libraryFileName(platform));
    }

    private static Path privateDir;

    /** Copies a packed library into this process's private temporary folder (owner-only, removed at exit). */
    private static synchronized Path extract(URL url, String fileName) {
        try {
            if (privateDir == null) {
                privateDir = Files.createTempDirectory("cuzk-native-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                privateDir.toFile().deleteOnExit();
            }
            Path target = privateDir.resolve(fileName);
            try (InputStream in = url.openStream()) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
            target.toFile().deleteOnExit();
            return target;
        } catch (IOException | UnsupportedOperationException e) {
            throw new NativeLibraryException("cuzk: could not extract " + url + " into a temporary folder under "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
    }

    private static String packedPlatforms(ClassLoader loader) {
        StringBuilder sb = new StringBuilder();
        for (String p : new String[] {"linux-x86_64", "linux-aarch64", "macos-aarch64", "windows-x86_64"}) {
            if (loader != null && loader.getResource(RESOURCE_ROOT + p + "/" + libraryFileName(p)) != null) {
                sb.append(sb.isEmpty() ? "" : ", ").append(p);
            }
        }
        return sb.isEmpty() ? "no platform (no native library is packed at all)" : sb.toString();
    }
}
