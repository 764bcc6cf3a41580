package io.cuzk.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Loads a library from bytes this process holds: they are written into an anonymous memory file
 * (memfd_create), sealed against any further change, and the dynamic loader opens that file through
 * /proc/self/fd. What runs is exactly what was checked: no file that another process could
 * rewrite, truncate or swap between the check and the load is ever opened by the loader.
 */
final class SealedCopy {
    private SealedCopy() {}

    private static final int MFD_CLOEXEC = 1;
    private static final int MFD_ALLOW_SEALING = 2;
    private static final int F_ADD_SEALS = 1033;
    private static final int F_SEAL_SEAL = 1, F_SEAL_SHRINK = 2, F_SEAL_GROW = 4, F_SEAL_WRITE = 8;

    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        static final SymbolLookup LIBC = LINKER.defaultLookup();
        static final MethodHandle MEMFD_CREATE = handle("memfd_create",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final MethodHandle WRITE = handle("write",
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        static final MethodHandle FCNTL = LINKER.downcallHandle(LIBC.findOrThrow("fcntl"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

        static MethodHandle handle(String name, FunctionDescriptor d) {
            return LINKER.downcallHandle(LIBC.findOrThrow(name), d);
        }
    }

    /**
     * Loads the library whose bytes are in image (an ELF shared object checked by the caller);
     * name is what the memory file is called in /proc/self/maps. Throws IllegalStateException
     * with the system's reason when a step fails, IllegalArgumentException when the loader
     * refuses the library.
     */
    static SymbolLookup load(MemorySegment image, String name) {
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = (int) Libc.MEMFD_CREATE.invokeExact(a.allocateFrom(name), MFD_CLOEXEC | MFD_ALLOW_SEALING);
        } catch (Throwable t) {
            throw new IllegalStateException("memfd_create is not available: " + t, t);
        }
        if (fd < 0) {
            throw new IllegalStateException("memfd_create failed");
        }
        try {
            long done = 0;
            while (done < image.byteSize()) {
                long n = (long) Libc.WRITE.invokeExact(fd, image.asSlice(done), image.byteSize() - done);
                if (n <= 0) {
                    throw new IllegalStateException("writing the library into memory failed after " + done + " bytes");
                }
                done += n;
            }
            int sealed = (int) Libc.FCNTL.invokeExact(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
            if (sealed != 0) {
                throw new IllegalStateException("sealing the in-memory library failed");
            }
            // The name form: dlopen gets the /proc path as it is. (The Path form resolves it to its
            // target first, which for a memory file names nothing on disk.)
            return SymbolLookup.libraryLookup("/proc/self/fd/" + fd, Arena.global());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            try {
                int ignored = (int) Libc.CLOSE.invokeExact(fd); // the loader keeps its own mapping
            } catch (Throwable t) {
                // nothing more to release
            }
        }
    }
}
