package io.cuzk.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import io.cuzk.NativeLibraryException;
import io.cuzk.internal.ffi.cuzk_h;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.SystemUtils;

/**
 * Finds and loads libcuzk. By default the copy packed in this jar under
 * {@code io/cuzk/native/<os>-<arch>/} is used: a library on the class path as a plain file (an
 * unpacked build) is loaded where it is; one inside a jar is extracted once into a per-user cache,
 * {@code $XDG_CACHE_HOME/cuzk/native} or {@code ~/.cache/cuzk/native} (system property
 * {@value #CACHE_PROPERTY} names another folder, or {@code none}), in a folder named by the jar
 * entry's CRC-32 and size, and later processes load that copy after checking its size and CRC-32
 * (about 2 ms, where inflating the 4-5 MB library costs about 50 ms). Cache folders are created
 * owner-only; where the cache cannot be used (not writable, not the user's own, or disabled) the
 * library is extracted into a private temporary folder (owner-only, removed at exit) instead.
 * The system property {@value #PATH_PROPERTY} names another copy of the library instead, for
 * example a build with different options.
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
    /** System property naming the folder packed libraries are cached in ({@code none}: no cache). */
    public static final String CACHE_PROPERTY = "cuzk.native.cache";
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

    /**
     * The symbol lookup of the generated bindings ({@link cuzk_h}): it loads the library on first
     * use, so that whichever binding runs first gets the checked, packed library (or its
     * {@link NativeLibraryException}), never a lookup of whatever happens to be loaded.
     */
    public static SymbolLookup symbols() {
        return name -> lookup().find(name);
    }

    /** The symbol lookup of the generated bindings of libcuzk_cuda, loading it on first use. */
    public static SymbolLookup cudaSymbols() {
        return name -> cudaLookup().find(name);
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
            file = extract(url, CUDA_FILE, cacheDir());
        }
        try {
            return SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            return new NativeLibraryException("cuzk: could not load the CUDA backend " + file + ": " + e.getMessage(), e);
        }
    }

    record Loaded(SymbolLookup lookup, Path path) {}

    private static Loaded load() {
        // The platform is worked out only for the packed copy: an explicit path (bin/cuzk passes
        // the unpacked one) needs neither it nor the jar.
        String override = System.getProperty(PATH_PROPERTY);
        Path file = locate(override, override == null || override.isBlank() ? platform() : null, NativeLibrary.class.getClassLoader());
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new NativeLibraryException("cuzk: could not load the native library " + file + ": " + e.getMessage(), e);
        }
        checkAbi(lookup, file);
        return new Loaded(lookup, file);
    }

    /**
     * Refuses a library of another ABI version: its structs or signatures would not match. The
     * version is read from the library's data (cuzk_abi_version_value), not called for, so that no
     * call shape is linked before the first real call needs one; a library without that symbol is
     * asked through cuzk_abi_version, only to name its version.
     */
    private static void checkAbi(SymbolLookup lookup, Path file) {
        int abi;
        var value = lookup.find("cuzk_abi_version_value");
        if (value.isPresent()) {
            abi = value.get().reinterpret(4).get(ValueLayout.JAVA_INT, 0);
        } else {
            MemorySegment fn = lookup.find("cuzk_abi_version").orElseThrow(() -> new NativeLibraryException(
                    "cuzk: " + file + " has no cuzk_abi_version symbol: it is not a cuzk library"));
            try {
                abi = (int) Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
            } catch (Throwable t) {
                throw new NativeLibraryException("cuzk: calling cuzk_abi_version in " + file + " failed: " + t, t);
            }
        }
        if (abi != cuzk_h.CUZK_ABI_VERSION()) {
            throw new NativeLibraryException("cuzk: " + file + " implements ABI version " + abi + " but these bindings need "
                    + cuzk_h.CUZK_ABI_VERSION() + "; use the library built with this jar");
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
        return extract(url, libraryFileName(platform), cacheDir());
    }

    private static Path privateDir;

    /**
     * Whether a library was copied into a temporary folder that is deleted when the JVM runs its
     * shutdown hooks (the fallback when no cache folder is usable): a process that ends with
     * {@link Runtime#halt} would leave it behind.
     */
    public static synchronized boolean deletesFilesOnExit() {
        return privateDir != null;
    }

    /** The cache folder: the property's, else under XDG_CACHE_HOME or ~/.cache; null for none. */
    static Path cacheDir() {
        String prop = System.getProperty(CACHE_PROPERTY);
        if (prop != null) {
            return StringUtils.isBlank(prop) || prop.equalsIgnoreCase("none") ? null : Path.of(prop);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (StringUtils.isNotBlank(xdg) && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "cuzk", "native");
        }
        String home = SystemUtils.USER_HOME;
        return StringUtils.isBlank(home) ? null : Path.of(home, ".cache", "cuzk", "native");
    }

    /**
     * The file to load for a packed library: the resource itself when it is a plain file, else its
     * cached copy (extracted now if missing or damaged), else a copy in a private temporary folder.
     */
    static synchronized Path extract(URL url, String fileName, Path cache) {
        if ("file".equals(url.getProtocol())) {
            try {
                Path in = Path.of(url.toURI());
                if (Files.isRegularFile(in)) {
                    return in;
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // not a path this file system knows: copy it like a jar entry
            }
        }
        if (cache != null && SystemUtils.IS_OS_UNIX) {
            try {
                Path cached = cached(url, fileName, cache);
                if (cached != null) {
                    return cached;
                }
            } catch (IOException | UncheckedIOException | UnsupportedOperationException | SecurityException e) {
                // an unusable cache only costs the extraction below
            }
        }
        try {
            if (privateDir == null) {
                privateDir = Files.createTempDirectory("cuzk-native-",
                        PosixFilePermissions.asFileAttribute(OWNER_ONLY));
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

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    /** The cached copy of a jar entry, extracted if needed; null where the entry's CRC is unknown. */
    private static Path cached(URL url, String fileName, Path cache) throws IOException {
        URLConnection conn = url.openConnection();
        if (!(conn instanceof JarURLConnection jar)) {
            return null;
        }
        conn.setUseCaches(true); // the JDK keeps this jar open for later lookups in this process
        JarEntry entry = jar.getJarEntry();
        long crc = entry.getCrc();
        long size = entry.getSize();
        if (crc < 0 || size < 0) {
            return null;
        }
        Path dir = cache.resolve(String.format(Locale.ROOT, "%08x-%d", crc, size));
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        // Only a folder of our own that nobody else may write into is trusted with code we load.
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
        if (!Files.getOwner(dir).getName().equals(SystemUtils.USER_NAME) || perms.contains(PosixFilePermission.GROUP_WRITE)
                || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            return null;
        }
        Path target = dir.resolve(fileName);
        if (Files.isRegularFile(target) && Files.size(target) == size && crc32(target) == crc) {
            return target;
        }
        Path tmp = Files.createTempFile(dir, fileName, ".part");
        try {
            try (InputStream in = jar.getInputStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.size(tmp) != size || crc32(tmp) != crc) {
                throw new IOException(url + " changed while it was copied");
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return target;
    }

    /**
     * CRC-32 of a file, read through one direct buffer: on every load of a cached library, so it
     * must be cheap; reading in chunks costs a fifth of mapping the file (whose page faults
     * dominate) or of reading it into one heap array.
     */
    static long crc32(Path file) throws IOException {
        CRC32 crc = new CRC32();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 18);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf.clear()) >= 0) {
                crc.update(buf.flip());
            }
        }
        return crc.getValue();
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
