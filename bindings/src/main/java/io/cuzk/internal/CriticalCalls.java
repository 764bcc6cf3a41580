package io.cuzk.internal;

import io.cuzk.internal.ffi.ffi_h;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The four downcalls of cuzk.h that are bound as critical ({@link Linker.Option#critical}: no
 * thread-state transition, for calls that only read a constant or a thread-local string), which
 * jextract cannot express; everything else is generated ({@link io.cuzk.internal.ffi.cuzk_h}).
 * They keep jextract's shape and layouts ({@code char*} results as {@link ffi_h#C_POINTER}, readable as
 * C strings): {@code f$descriptor()} and a static method per function.
 */
public final class CriticalCalls {
    private CriticalCalls() {}

    private static final Linker LINKER = Linker.nativeLinker();

    private static MethodHandle critical(String name, FunctionDescriptor desc) {
        MemorySegment addr = NativeLibrary.symbols().findOrThrow(name);
        return LINKER.downcallHandle(addr, desc, Linker.Option.critical(false));
    }

    private static final class cuzk_abi_version {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(ffi_h.C_INT);
        static final MethodHandle HANDLE = critical("cuzk_abi_version", DESC);
    }

    private static final class cuzk_version {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(ffi_h.C_POINTER);
        static final MethodHandle HANDLE = critical("cuzk_version", DESC);
    }

    private static final class cuzk_last_error {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(ffi_h.C_POINTER);
        static final MethodHandle HANDLE = critical("cuzk_last_error", DESC);
    }

    private static final class cuzk_status_name {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(ffi_h.C_POINTER, ffi_h.C_INT);
        static final MethodHandle HANDLE = critical("cuzk_status_name", DESC);
    }

    /** {@snippet lang=c : uint32_t cuzk_abi_version(void) } */
    public static FunctionDescriptor cuzk_abi_version$descriptor() {
        return cuzk_abi_version.DESC;
    }

    public static int cuzk_abi_version() {
        try {
            return (int) cuzk_abi_version.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@snippet lang=c : const char *cuzk_version(void) } */
    public static FunctionDescriptor cuzk_version$descriptor() {
        return cuzk_version.DESC;
    }

    public static MemorySegment cuzk_version() {
        try {
            return (MemorySegment) cuzk_version.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@snippet lang=c : const char *cuzk_last_error(void) } */
    public static FunctionDescriptor cuzk_last_error$descriptor() {
        return cuzk_last_error.DESC;
    }

    public static MemorySegment cuzk_last_error() {
        try {
            return (MemorySegment) cuzk_last_error.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@snippet lang=c : const char *cuzk_status_name(cuzk_status_t status) } */
    public static FunctionDescriptor cuzk_status_name$descriptor() {
        return cuzk_status_name.DESC;
    }

    public static MemorySegment cuzk_status_name(int status) {
        try {
            return (MemorySegment) cuzk_status_name.HANDLE.invokeExact(status);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException re) {
            return re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("a downcall threw a checked exception", t);
    }
}
