package io.cuzk.internal;

import io.cuzk.NativeLibraryException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and loads the CUDA runtime, {@code libcudart.so.13}: the file named by the system property
 * {@value #PATH_PROPERTY}, else the dynamic loader's search (LD_LIBRARY_PATH, the ld cache), else
 * $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64. Failure names every place tried.
 */
public final class CudaLibrary {
    public static final String PATH_PROPERTY = "cuzk.cudart.path";
    static final String SONAME = "libcudart.so.13";

    private CudaLibrary() {}

    private record Loaded(SymbolLookup lookup, String path) {}

    private static final class Holder {
        static final Object LOADED = load();
    }

    /** The runtime's symbols; throws {@link NativeLibraryException} saying where it looked if it cannot be loaded. */
    public static SymbolLookup lookup() {
        return loaded().lookup;
    }

    /** The symbol lookup of the generated bindings of the runtime, loading it on first use. */
    public static SymbolLookup symbols() {
        return name -> lookup().find(name);
    }

    /** Throws the runtime's {@link NativeLibraryException} if it cannot be loaded (see NativeLibrary.require). */
    public static void require() {
        loaded();
    }

    /** Where the runtime was loaded from. */
    public static String path() {
        return loaded().path;
    }

    /** Whether the runtime can be loaded (without throwing). */
    public static boolean available() {
        return Holder.LOADED instanceof Loaded;
    }

    private static Loaded loaded() {
        if (Holder.LOADED instanceof Loaded l) {
            return l;
        }
        throw (NativeLibraryException) Holder.LOADED;
    }

    private static Object load() {
        List<String> tried = new ArrayList<>();
        String override = System.getProperty(PATH_PROPERTY);
        if (override != null && !override.isBlank()) {
            try {
                return new Loaded(SymbolLookup.libraryLookup(Path.of(override), Arena.global()), override);
            } catch (IllegalArgumentException e) {
                return new NativeLibraryException("cuzk: the CUDA runtime named by -D" + PATH_PROPERTY + "=" + override
                        + " cannot be loaded: " + e.getMessage());
            }
        }
        try {
            return new Loaded(SymbolLookup.libraryLookup(SONAME, Arena.global()), SONAME);
        } catch (IllegalArgumentException e) {
            tried.add(SONAME + " (the dynamic loader's search path)");
        }
        for (String root : new String[] {System.getenv("CUDA_HOME"), System.getenv("CUDA_PATH"), "/usr/local/cuda"}) {
            if (root == null || root.isBlank()) {
                continue;
            }
            Path p = Path.of(root, "lib64", SONAME);
            tried.add(p.toString());
            if (Files.isRegularFile(p)) {
                try {
                    return new Loaded(SymbolLookup.libraryLookup(p, Arena.global()), p.toString());
                } catch (IllegalArgumentException e) {
                    tried.set(tried.size() - 1, p + " (" + e.getMessage() + ")");
                }
            }
        }
        return new NativeLibraryException("cuzk: the CUDA runtime " + SONAME + " was not found; looked in: " + String.join(", ", tried)
                + ". Install CUDA 13 or set -D" + PATH_PROPERTY + "=/path/to/" + SONAME);
    }
}
