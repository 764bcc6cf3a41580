package io.cuzk.internal;

import static io.cuzk.internal.cuzk_h.C_INT;
import static io.cuzk.internal.cuzk_h.C_LONG_LONG;
import static io.cuzk.internal.cuzk_h.C_POINTER;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls of libcuzk_cuda, the CUDA backend's half of {@code cuzk/cuzk.h}, in the same
 * jextract shape as {@link cuzk_h}. The library is loaded on first use, after the CUDA runtime.
 * Statuses come back as they are; {@link CudaChecked} turns them into exceptions.
 */
@SuppressWarnings("unused")
public final class cuzk_cuda_h {
    private cuzk_cuda_h() {}

    static final Linker LINKER = Linker.nativeLinker();

    static MemorySegment findOrThrow(String symbol) {
        return NativeLibrary.cudaLookup().find(symbol).orElseThrow(() -> new UnsatisfiedLinkError(
                "cuzk: symbol " + symbol + " not found in libcuzk_cuda (a library of another ABI version?)"));
    }

    private static final class cuzk_cuda_last_error {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_last_error");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : const char *cuzk_cuda_last_error(void) } */
    public static FunctionDescriptor cuzk_cuda_last_error$descriptor() {
        return cuzk_cuda_last_error.DESC;
    }

    public static MethodHandle cuzk_cuda_last_error$handle() {
        return cuzk_cuda_last_error.HANDLE;
    }

    public static MemorySegment cuzk_cuda_last_error$address() {
        return cuzk_cuda_last_error.ADDR;
    }

    public static MemorySegment cuzk_cuda_last_error() {
        var mh$ = cuzk_cuda_last_error.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_device_count {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_device_count");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_device_count(int32_t *count) } */
    public static FunctionDescriptor cuzk_cuda_device_count$descriptor() {
        return cuzk_cuda_device_count.DESC;
    }

    public static MethodHandle cuzk_cuda_device_count$handle() {
        return cuzk_cuda_device_count.HANDLE;
    }

    public static MemorySegment cuzk_cuda_device_count$address() {
        return cuzk_cuda_device_count.ADDR;
    }

    public static int cuzk_cuda_device_count(MemorySegment count) {
        var mh$ = cuzk_cuda_device_count.HANDLE;
        try {
            return (int) mh$.invokeExact(count);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_field_op {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG_LONG);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_field_op");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_field_op(int32_t device, uint32_t curve, uint32_t field, uint32_t op, const void *a, const void *b, void *out, uint64_t n) } */
    public static FunctionDescriptor cuzk_cuda_field_op$descriptor() {
        return cuzk_cuda_field_op.DESC;
    }

    public static MethodHandle cuzk_cuda_field_op$handle() {
        return cuzk_cuda_field_op.HANDLE;
    }

    public static MemorySegment cuzk_cuda_field_op$address() {
        return cuzk_cuda_field_op.ADDR;
    }

    public static int cuzk_cuda_field_op(int device, int curve, int field, int op, MemorySegment a, MemorySegment b, MemorySegment out, long n) {
        var mh$ = cuzk_cuda_field_op.HANDLE;
        try {
            return (int) mh$.invokeExact(device, curve, field, op, a, b, out, n);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_point_op {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG_LONG);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_point_op");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_point_op(int32_t device, uint32_t curve, uint32_t group, uint32_t op, const void *a, const void *b, void *out, uint64_t n) } */
    public static FunctionDescriptor cuzk_cuda_point_op$descriptor() {
        return cuzk_cuda_point_op.DESC;
    }

    public static MethodHandle cuzk_cuda_point_op$handle() {
        return cuzk_cuda_point_op.HANDLE;
    }

    public static MemorySegment cuzk_cuda_point_op$address() {
        return cuzk_cuda_point_op.ADDR;
    }

    public static int cuzk_cuda_point_op(int device, int curve, int group, int op, MemorySegment a, MemorySegment b, MemorySegment out, long n) {
        var mh$ = cuzk_cuda_point_op.HANDLE;
        try {
            return (int) mh$.invokeExact(device, curve, group, op, a, b, out, n);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_ntt {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_ntt");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_ntt(int32_t device, void *stream, const cuzk_ntt_config *config, void *d_data) } */
    public static FunctionDescriptor cuzk_cuda_ntt$descriptor() {
        return cuzk_cuda_ntt.DESC;
    }

    public static MethodHandle cuzk_cuda_ntt$handle() {
        return cuzk_cuda_ntt.HANDLE;
    }

    public static MemorySegment cuzk_cuda_ntt$address() {
        return cuzk_cuda_ntt.ADDR;
    }

    public static int cuzk_cuda_ntt(int device, MemorySegment stream, MemorySegment config, MemorySegment d_data) {
        var mh$ = cuzk_cuda_ntt.HANDLE;
        try {
            return (int) mh$.invokeExact(device, stream, config, d_data);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_groth16_h {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_groth16_h");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_groth16_h(int32_t device, void *stream, uint32_t curve, uint32_t log_n, void *d_a, void *d_b, void *d_c) } */
    public static FunctionDescriptor cuzk_cuda_groth16_h$descriptor() {
        return cuzk_cuda_groth16_h.DESC;
    }

    public static MethodHandle cuzk_cuda_groth16_h$handle() {
        return cuzk_cuda_groth16_h.HANDLE;
    }

    public static MemorySegment cuzk_cuda_groth16_h$address() {
        return cuzk_cuda_groth16_h.ADDR;
    }

    public static int cuzk_cuda_groth16_h(int device, MemorySegment stream, int curve, int log_n, MemorySegment d_a, MemorySegment d_b, MemorySegment d_c) {
        var mh$ = cuzk_cuda_groth16_h.HANDLE;
        try {
            return (int) mh$.invokeExact(device, stream, curve, log_n, d_a, d_b, d_c);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_msm_start {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_msm_start");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_msm_start(int32_t device, void *stream, const cuzk_msm_config *config, const void *d_bases, const void *d_scalars, cuzk_cuda_msm **handle) } */
    public static FunctionDescriptor cuzk_cuda_msm_start$descriptor() {
        return cuzk_cuda_msm_start.DESC;
    }

    public static MethodHandle cuzk_cuda_msm_start$handle() {
        return cuzk_cuda_msm_start.HANDLE;
    }

    public static MemorySegment cuzk_cuda_msm_start$address() {
        return cuzk_cuda_msm_start.ADDR;
    }

    public static int cuzk_cuda_msm_start(int device, MemorySegment stream, MemorySegment config, MemorySegment d_bases, MemorySegment d_scalars, MemorySegment handle) {
        var mh$ = cuzk_cuda_msm_start.HANDLE;
        try {
            return (int) mh$.invokeExact(device, stream, config, d_bases, d_scalars, handle);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cuzk_cuda_msm_finish {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_cuda_msm_finish");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_cuda_msm_finish(cuzk_cuda_msm *handle, void *result) } */
    public static FunctionDescriptor cuzk_cuda_msm_finish$descriptor() {
        return cuzk_cuda_msm_finish.DESC;
    }

    public static MethodHandle cuzk_cuda_msm_finish$handle() {
        return cuzk_cuda_msm_finish.HANDLE;
    }

    public static MemorySegment cuzk_cuda_msm_finish$address() {
        return cuzk_cuda_msm_finish.ADDR;
    }

    public static int cuzk_cuda_msm_finish(MemorySegment handle, MemorySegment result) {
        var mh$ = cuzk_cuda_msm_finish.HANDLE;
        try {
            return (int) mh$.invokeExact(handle, result);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }
}
