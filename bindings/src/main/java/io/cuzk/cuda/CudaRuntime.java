package io.cuzk.cuda;

import io.cuzk.CudaException;
import io.cuzk.internal.CudaLibrary;
import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.ToIntFunction;

/**
 * The CUDA runtime through FFM: versions, devices, and the mapping of every {@code cudaError_t}
 * to a {@link CudaException} that carries the error's name, its message and the call.
 *
 * <p>CUDA keeps a current device per host thread. The types of this package set their device on
 * the calling thread before each call, so they may be used from any thread.
 */
public final class CudaRuntime {
    private CudaRuntime() {}

    /** Whether libcudart can be loaded here (a GPU may still be missing). */
    public static boolean libraryAvailable() {
        return CudaLibrary.available();
    }

    /** Throws the CudaException for code unless it is cudaSuccess. */
    public static void check(int code, String call) {
        if (code != cudart_h.cudaSuccess()) {
            throw new CudaException(call, code, errorName(code), errorString(code));
        }
    }

    /** The enumerator name of an error code, such as {@code cudaErrorInsufficientDriver}. */
    public static String errorName(int code) {
        MemorySegment s = cudart_h.cudaGetErrorName(code);
        return s.equals(MemorySegment.NULL) ? "cudaError" + code : s.getString(0);
    }

    /** The runtime's description of an error code. */
    public static String errorString(int code) {
        MemorySegment s = cudart_h.cudaGetErrorString(code);
        return s.equals(MemorySegment.NULL) ? "unknown CUDA error " + code : s.getString(0);
    }

    /** The runtime's version, 1000 * major + 10 * minor (13000 for CUDA 13.0). */
    public static int runtimeVersion() {
        CudaLibrary.require();
        return intOut(p -> cudart_h.cudaRuntimeGetVersion(p), "cudaRuntimeGetVersion");
    }

    /** The version the installed driver supports (0 where no driver is installed). */
    public static int driverVersion() {
        CudaLibrary.require();
        return intOut(p -> cudart_h.cudaDriverGetVersion(p), "cudaDriverGetVersion");
    }

    /**
     * The number of CUDA devices. Throws {@link CudaException} when the driver is missing or too old
     * ({@code cudaErrorInsufficientDriver}) or there is no device ({@code cudaErrorNoDevice}).
     */
    public static int deviceCount() {
        CudaLibrary.require();
        return intOut(p -> cudart_h.cudaGetDeviceCount(p), "cudaGetDeviceCount");
    }

    interface IntCall {
        int call(MemorySegment out);
    }

    static int intOut(IntCall c, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            check(c.call(out), name);
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static MemorySegment pointerOut(ToIntFunction<MemorySegment> c, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            check(c.applyAsInt(out), name);
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }
}
