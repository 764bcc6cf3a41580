package io.cuzk.internal;

import io.cuzk.NativeLibraryException;
import io.cuzk.internal.ffi.cuzk_h;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.apache.commons.lang3.StringUtils;

/**
 * Finds and loads libcuzk (and libcuzk_cuda). The trust model:
 *
 * <ul>
 *   <li>The copy packed in this jar, under {@code io/cuzk/native/<os>-<arch>/}, is trusted with the
 *       jar, and so is its SHA-256, which the build packs beside it. Whatever file holds a copy of
 *       it, the bytes are read into this process, their SHA-256 compared with the packed one, and
 *       the loader is handed those very bytes, sealed in an anonymous memory file
 *       ({@link SealedCopy}): a copy swapped or truncated by another process between the check and
 *       the load is never what runs.
 *   <li>The copy is cached, so that later processes skip inflating it (about 50 ms), in
 *       {@code $XDG_CACHE_HOME/cuzk/native}, {@code ~/.cache/cuzk/native}, or the folder the
 *       system property {@value #CACHE_PROPERTY} names ({@code none}: no cache, memory only). The
 *       cache is written only into a folder no other user can write into or swap
 *       ({@link TrustedDirectory}: every component of its path checked, no link followed); where
 *       it is not such a folder the load is refused with one line saying why and what to do.
 *   <li>A file named by the system property {@value #PATH_PROPERTY} (bin/cuzk names the build's
 *       own) is trusted as the user's choice and loaded where it is, after a check that it is a
 *       complete ELF shared object: a truncated file would crash the process in the loader.
 * </ul>
 *
 * Every failure is a {@link NativeLibraryException} whose message says what was wrong and where,
 * thrown again by every later use (never an ExceptionInInitializerError).
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

    /** A loaded library: its symbols, and where it came from, for reports. */
    record Loaded(SymbolLookup lookup, String location) {}

    private static final class Holder {
        static final Object LOADED = loadOrFailure();
    }

    private static final class CudaHolder {
        static final Object LOADED = loadCudaOrFailure();
    }

    private static Loaded loaded() {
        if (Holder.LOADED instanceof Loaded l) {
            return l;
        }
        throw (NativeLibraryException) Holder.LOADED;
    }

    /**
     * Loads the library if it is not, and throws its {@link NativeLibraryException} if it cannot
     * be. Every public entry of the typed API calls this before it touches a generated binding: a
     * binding's holder class looks its symbol up as it initialises, and an exception thrown there
     * would reach the caller as an ExceptionInInitializerError, and as NoClassDefFoundError ever
     * after.
     */
    public static void require() {
        if (Holder.LOADED instanceof NativeLibraryException e) {
            throw e;
        }
    }

    /** The library's symbols, loaded on first use; throws {@link NativeLibraryException} if it cannot be. */
    public static SymbolLookup lookup() {
        return loaded().lookup();
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

    /** Where the loaded library came from: a file, or a checked copy of the packed one. */
    public static String location() {
        return loaded().location();
    }

    /**
     * The symbols of libcuzk_cuda, the CUDA backend, loaded on first use after the CUDA runtime
     * (which it links). Throws {@link NativeLibraryException} saying what is missing: this jar's
     * build had no nvcc, or the CUDA runtime is not installed.
     */
    public static SymbolLookup cudaLookup() {
        if (CudaHolder.LOADED instanceof Loaded l) {
            return l.lookup();
        }
        throw (NativeLibraryException) CudaHolder.LOADED;
    }

    /** Whether libcuzk_cuda could be loaded (it may still find no device). */
    public static boolean cudaAvailable() {
        return CudaHolder.LOADED instanceof Loaded;
    }

    private static Object loadOrFailure() {
        try {
            String override = System.getProperty(PATH_PROPERTY);
            Loaded l = override != null && !override.isBlank() ? fromFile(Path.of(override), "the system property " + PATH_PROPERTY)
                    : packed(libraryFileName(platform()), platform(), NativeLibrary.class.getClassLoader(), cacheDir());
            checkAbi(l);
            return l;
        } catch (NativeLibraryException e) {
            return e;
        }
    }

    private static Object loadCudaOrFailure() {
        try {
            CudaLibrary.lookup(); // libcudart first: libcuzk_cuda needs it
            String override = System.getProperty(CUDA_PATH_PROPERTY);
            if (override != null && !override.isBlank()) {
                return fromFile(Path.of(override), "the system property " + CUDA_PATH_PROPERTY);
            }
            ClassLoader loader = NativeLibrary.class.getClassLoader();
            if (loader.getResource(RESOURCE_ROOT + platform() + "/" + CUDA_FILE) == null) {
                return new NativeLibraryException("cuzk: this build has no CUDA backend: " + RESOURCE_ROOT + platform() + "/" + CUDA_FILE
                        + " is not in the jar (nvcc was not found when it was built)");
            }
            return packed(CUDA_FILE, platform(), loader, cacheDir());
        } catch (NativeLibraryException e) {
            return e;
        }
    }

    /**
     * Refuses a library of another ABI version: its structs or signatures would not match. The
     * version is read from the library's data (cuzk_abi_version_value), not called for, so that no
     * call shape is linked before the first real call needs one; a library without that symbol is
     * asked through cuzk_abi_version, only to name its version.
     */
    private static void checkAbi(Loaded l) {
        int abi;
        var value = l.lookup().find("cuzk_abi_version_value");
        if (value.isPresent()) {
            abi = value.get().reinterpret(4).get(ValueLayout.JAVA_INT, 0);
        } else {
            MemorySegment fn = l.lookup().find("cuzk_abi_version").orElseThrow(() -> new NativeLibraryException(
                    "cuzk: " + l.location() + " has no cuzk_abi_version symbol: it is not a cuzk library"));
            try {
                abi = (int) Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
            } catch (Throwable t) {
                throw new NativeLibraryException("cuzk: calling cuzk_abi_version in " + l.location() + " failed: " + t, t);
            }
        }
        if (abi != cuzk_h.CUZK_ABI_VERSION()) {
            throw new NativeLibraryException("cuzk: " + l.location() + " implements ABI version " + abi + " but these bindings need "
                    + cuzk_h.CUZK_ABI_VERSION() + "; use the library built with this jar");
        }
    }

    /**
     * The folder name of the running platform, such as {@code linux-x86_64}. From the os.name and
     * os.arch properties themselves, not commons-lang3's SystemUtils, whose class initialiser reads
     * every system property the JDK has (tens of milliseconds of a process's first library load;
     * the cache folder's rule avoids it too, {@link TrustedDirectory#cacheFolder}).
     */
    public static String platform() {
        String name = System.getProperty("os.name", "");
        String os;
        if (name.startsWith("Linux") || name.startsWith("LINUX")) {
            os = "linux";
        } else if (name.startsWith("Mac")) {
            os = "macos";
        } else if (name.startsWith("Windows")) {
            os = "windows";
        } else {
            os = name.toLowerCase(Locale.ROOT).replace(' ', '_');
        }
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
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

    /** The cache folder: the property's, else under XDG_CACHE_HOME or ~/.cache; null for none. */
    static Path cacheDir() {
        return TrustedDirectory.cacheFolder(CACHE_PROPERTY, "native");
    }

    // ---- a file the user named ------------------------------------------------------------------

    /** Loads a library file where it is, after checking it is a complete ELF shared object. */
    static Loaded fromFile(Path file, String namedBy) {
        if (!Files.isRegularFile(file)) {
            throw new NativeLibraryException("cuzk: " + namedBy + " names " + file.toAbsolutePath() + ", which "
                    + (Files.exists(file) ? "is not a regular file" : "does not exist")
                    + "; point it at a cuzk library build or remove it to use the copy in the jar");
        }
        String problem;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(64, size));
            ch.read(head, 0);
            head.flip();
            problem = Elf.problem(size, head, (offset, length) -> {
                ByteBuffer b = ByteBuffer.allocate(length);
                try {
                    ch.read(b, offset);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return b.flip();
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            problem = "it cannot be read: " + e.getMessage();
        }
        if (problem != null) {
            throw new NativeLibraryException("cuzk: " + file.toAbsolutePath() + " (named by " + namedBy + ") cannot be loaded: " + problem);
        }
        try {
            return new Loaded(SymbolLookup.libraryLookup(file, Arena.global()), file.toAbsolutePath().toString());
        } catch (IllegalArgumentException e) {
            throw new NativeLibraryException("cuzk: could not load the native library " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    // ---- the packed library ------------------------------------------------------------------------

    /** The bytes of a packed library and where they were read from (null: inflated from the jar now). */
    record Checked(byte[] bytes, Path cachedAt) {}

    /**
     * Loads the packed library fileName of the platform from the class loader: from its cached copy
     * or the jar, through a sealed in-memory copy of bytes whose SHA-256 matched the packed one.
     */
    static Loaded packed(String fileName, String platform, ClassLoader loader, Path cache) {
        String resource = RESOURCE_ROOT + platform + "/" + fileName;
        URL url = loader == null ? null : loader.getResource(resource);
        if (url == null) {
            throw new NativeLibraryException("cuzk: no native library for platform " + platform + ": the resource " + resource
                    + " is not on the class path (looked with " + loader + "); this jar was built for " + packedPlatforms(loader)
                    + ". Build cuzk-java on this platform or set -D" + PATH_PROPERTY + "=/path/to/" + libraryFileName(platform));
        }
        if ("file".equals(url.getProtocol())) {
            // a build's own output folder on the class path (the tests): loaded where it is
            try {
                return fromFile(Path.of(url.toURI()), "the class path");
            } catch (URISyntaxException e) {
                throw new NativeLibraryException("cuzk: " + url + " is not a usable file name: " + e.getMessage(), e);
            }
        }
        Checked c = checkedBytes(url, expectedSha256(loader, resource), fileName, cache);
        String problem = Elf.problem(ByteBuffer.wrap(c.bytes()));
        if (problem != null) {
            throw new NativeLibraryException("cuzk: the packed " + resource + " cannot be loaded: " + problem);
        }
        String location = c.cachedAt() != null ? c.cachedAt() + " (checked against the jar's SHA-256, loaded from memory)"
                : url + " (checked, loaded from memory)";
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocate(c.bytes().length);
            MemorySegment.copy(MemorySegment.ofArray(c.bytes()), 0, image, 0, c.bytes().length);
            return new Loaded(SealedCopy.load(image, fileName), location);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new NativeLibraryException("cuzk: could not load " + location + ": " + e.getMessage(), e);
        }
    }

    /** The SHA-256 the build packed beside a library (resource + ".sha256", hex). */
    static String expectedSha256(ClassLoader loader, String resource) {
        URL digest = loader.getResource(resource + ".sha256");
        if (digest == null) {
            throw new NativeLibraryException("cuzk: " + resource + " is packed without its SHA-256 (" + resource
                    + ".sha256): this jar was not made by cuzk-java's build, and its library is not loaded");
        }
        try (InputStream in = digest.openStream()) {
            String hex = new String(in.readNBytes(200), StandardCharsets.US_ASCII).strip();
            if (!hex.matches("[0-9a-f]{64}")) {
                throw new NativeLibraryException("cuzk: " + resource + ".sha256 does not hold a SHA-256: '" + StringUtils.abbreviate(hex, 80) + "'");
            }
            return hex;
        } catch (IOException e) {
            throw new NativeLibraryException("cuzk: " + resource + ".sha256 cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The packed library's bytes, checked: the cached copy if there is one of the right digest,
     * else the jar's, written into the cache for the next process.
     */
    static Checked checkedBytes(URL url, String sha256, String fileName, Path cache) {
        if (cache == null) {
            return new Checked(inflate(url, sha256), null);
        }
        Path dir = cache.resolve(sha256.substring(0, 16));
        String why;
        try {
            why = TrustedDirectory.make(cache);
            if (why == null) {
                why = TrustedDirectory.make(dir);
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            why = "it cannot be made or checked: " + e;
        }
        if (why != null) {
            throw new NativeLibraryException("cuzk: the native library cache " + cache + " cannot be trusted: " + why
                    + ". Fix its permissions, choose another folder with -D" + CACHE_PROPERTY + "=DIR, or load from memory only with -D"
                    + CACHE_PROPERTY + "=none");
        }
        Path file = dir.resolve(fileName);
        byte[] cached = TrustedDirectory.readFile(file, Integer.MAX_VALUE - 16); // missing, a link, not ours: written anew below
        if (cached != null && sha256(cached).equals(sha256)) {
            TrustedDirectory.markUsed(file); // the versions pruning keeps are those used last
            return new Checked(cached, file);
        }
        byte[] bytes = inflate(url, sha256);
        // unwritten, it only costs the next process the inflation
        if (TrustedDirectory.replaceFile(file, bytes)) {
            pruneVersions(cache, dir, fileName, KEPT_VERSIONS);
        }
        return new Checked(bytes, file);
    }

    /** How many versions of each library the cache keeps (those used last): a few builds side by side, not every upgrade's. */
    static final int KEPT_VERSIONS = 4;

    /**
     * Removes the cache's copies of fileName but the kept most recently used (by their files'
     * times, touched on use), never keepDir's, and each folder left empty. A process that loaded a
     * copy holds it in memory (a sealed in-memory copy), not the file, so removing it harms no one
     * running. Only folders named as the cache names them (16 hex digits) are looked at, and what
     * cannot be read or removed is left.
     */
    static void pruneVersions(Path cache, Path keepDir, String fileName, int kept) {
        record Copy(Path dir, long used) {}
        List<Copy> copies = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> dirs = Files.newDirectoryStream(cache)) {
            for (Path d : dirs) {
                if (d.equals(keepDir) || !d.getFileName().toString().matches("[0-9a-f]{16}")) {
                    continue;
                }
                try {
                    var a = Files.readAttributes(d.resolve(fileName), java.nio.file.attribute.BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    if (a.isRegularFile()) {
                        copies.add(new Copy(d, a.lastModifiedTime().toMillis()));
                    }
                } catch (IOException e) {
                    // no copy of this library there
                }
            }
        } catch (IOException | RuntimeException e) {
            return;
        }
        copies.sort(java.util.Comparator.comparingLong(Copy::used).reversed());
        for (Copy c : copies.subList(Math.min(copies.size(), Math.max(0, kept - 1)), copies.size())) { // keepDir is one of those kept
            try {
                Files.deleteIfExists(c.dir().resolve(fileName));
                try (var left = Files.list(c.dir())) {
                    if (left.findAny().isEmpty()) {
                        Files.deleteIfExists(c.dir());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // another process removing it too, or not ours to remove: left
            }
        }
    }

    /** The jar entry's bytes, checked against the packed digest. */
    private static byte[] inflate(URL url, String sha256) {
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new NativeLibraryException("cuzk: " + url + " cannot be read: " + e.getMessage(), e);
        }
        String got = sha256(bytes);
        if (!got.equals(sha256)) {
            throw new NativeLibraryException("cuzk: " + url + " does not match the SHA-256 packed beside it (" + got + " instead of " + sha256
                    + "): the jar is damaged");
        }
        return bytes;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
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
