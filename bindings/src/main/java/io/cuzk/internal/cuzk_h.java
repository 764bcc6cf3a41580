package io.cuzk.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls of {@code cuzk/cuzk.h}, written by hand in the shape jextract generates (jextract is not
 * available to this build): one nested holder class per function with its descriptor, address and
 * {@code static final} method handle, created on first use; {@code f$descriptor()},
 * {@code f$handle()} and {@code f$address()} accessors; and a static method calling
 * {@code invokeExact}. Status codes are returned as they are: {@link io.cuzk.internal.Checked}
 * turns them into exceptions.
 *
 * <p>Runtime exceptions of the FFM layer (a closed arena's segment, a segment of the wrong
 * thread) pass through unchanged; no native code runs in that case.
 */
@SuppressWarnings("unused")
public final class cuzk_h {
    private cuzk_h() {}

    /** The ABI version these bindings were written for ({@code CUZK_ABI_VERSION}). */
    public static final int CUZK_ABI_VERSION = 2;

    private static final int CUZK_H_PREPARE = 1;

    /** {@snippet lang=c : enum cuzk_h_flags.CUZK_H_PREPARE = 1 } */
    public static int CUZK_H_PREPARE() {
        return CUZK_H_PREPARE;
    }

    private static final int CUZK_H_CANONICAL = 2;

    /** {@snippet lang=c : enum cuzk_h_flags.CUZK_H_CANONICAL = 2 } */
    public static int CUZK_H_CANONICAL() {
        return CUZK_H_CANONICAL;
    }

    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfLong C_LONG_LONG = ValueLayout.JAVA_LONG;
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS
            .withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));

    static final Linker LINKER = Linker.nativeLinker();

    static MemorySegment findOrThrow(String symbol) {
        return NativeLibrary.lookup().find(symbol).orElseThrow(() -> new UnsatisfiedLinkError(
                "cuzk: symbol " + symbol + " not found in " + NativeLibrary.path() + " (a library of another ABI version?)"));
    }

    static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException re) {
            return re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("should not reach here", t);
    }

    private static final class cuzk_abi_version {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MemorySegment ADDR = findOrThrow("cuzk_abi_version");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC, Linker.Option.critical(false));
    }

    /** {@snippet lang=c : uint32_t cuzk_abi_version(void) } */
    public static FunctionDescriptor cuzk_abi_version$descriptor() {
        return cuzk_abi_version.DESC;
    }

    public static MethodHandle cuzk_abi_version$handle() {
        return cuzk_abi_version.HANDLE;
    }

    public static MemorySegment cuzk_abi_version$address() {
        return cuzk_abi_version.ADDR;
    }

    public static int cuzk_abi_version() {
        var mh$ = cuzk_abi_version.HANDLE;
        try {
            return (int) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_version {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_version");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC, Linker.Option.critical(false));
    }

    /** {@snippet lang=c : const char *cuzk_version(void) } */
    public static FunctionDescriptor cuzk_version$descriptor() {
        return cuzk_version.DESC;
    }

    public static MethodHandle cuzk_version$handle() {
        return cuzk_version.HANDLE;
    }

    public static MemorySegment cuzk_version$address() {
        return cuzk_version.ADDR;
    }

    public static MemorySegment cuzk_version() {
        var mh$ = cuzk_version.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_get_library_info {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_get_library_info");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_get_library_info(cuzk_library_info *out) } */
    public static FunctionDescriptor cuzk_get_library_info$descriptor() {
        return cuzk_get_library_info.DESC;
    }

    public static MethodHandle cuzk_get_library_info$handle() {
        return cuzk_get_library_info.HANDLE;
    }

    public static MemorySegment cuzk_get_library_info$address() {
        return cuzk_get_library_info.ADDR;
    }

    public static int cuzk_get_library_info(MemorySegment out) {
        var mh$ = cuzk_get_library_info.HANDLE;
        try {
            return (int) mh$.invokeExact(out);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_get_curve_info {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_get_curve_info");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_get_curve_info(uint32_t curve, cuzk_curve_info *out) } */
    public static FunctionDescriptor cuzk_get_curve_info$descriptor() {
        return cuzk_get_curve_info.DESC;
    }

    public static MethodHandle cuzk_get_curve_info$handle() {
        return cuzk_get_curve_info.HANDLE;
    }

    public static MemorySegment cuzk_get_curve_info$address() {
        return cuzk_get_curve_info.ADDR;
    }

    public static int cuzk_get_curve_info(int curve, MemorySegment out) {
        var mh$ = cuzk_get_curve_info.HANDLE;
        try {
            return (int) mh$.invokeExact(curve, out);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_last_error {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_last_error");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC, Linker.Option.critical(false));
    }

    /** {@snippet lang=c : const char *cuzk_last_error(void) } */
    public static FunctionDescriptor cuzk_last_error$descriptor() {
        return cuzk_last_error.DESC;
    }

    public static MethodHandle cuzk_last_error$handle() {
        return cuzk_last_error.HANDLE;
    }

    public static MemorySegment cuzk_last_error$address() {
        return cuzk_last_error.ADDR;
    }

    public static MemorySegment cuzk_last_error() {
        var mh$ = cuzk_last_error.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_status_name {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cuzk_status_name");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC, Linker.Option.critical(false));
    }

    /** {@snippet lang=c : const char *cuzk_status_name(cuzk_status_t status) } */
    public static FunctionDescriptor cuzk_status_name$descriptor() {
        return cuzk_status_name.DESC;
    }

    public static MethodHandle cuzk_status_name$handle() {
        return cuzk_status_name.HANDLE;
    }

    public static MemorySegment cuzk_status_name$address() {
        return cuzk_status_name.ADDR;
    }

    public static MemorySegment cuzk_status_name(int status) {
        var mh$ = cuzk_status_name.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact(status);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_set_cpu_isa {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MemorySegment ADDR = findOrThrow("cuzk_set_cpu_isa");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_set_cpu_isa(uint32_t isa) } */
    public static FunctionDescriptor cuzk_set_cpu_isa$descriptor() {
        return cuzk_set_cpu_isa.DESC;
    }

    public static MethodHandle cuzk_set_cpu_isa$handle() {
        return cuzk_set_cpu_isa.HANDLE;
    }

    public static MemorySegment cuzk_set_cpu_isa$address() {
        return cuzk_set_cpu_isa.ADDR;
    }

    public static int cuzk_set_cpu_isa(int isa) {
        var mh$ = cuzk_set_cpu_isa.HANDLE;
        try {
            return (int) mh$.invokeExact(isa);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_field_op {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG_LONG);
        static final MemorySegment ADDR = findOrThrow("cuzk_field_op");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_field_op(uint32_t curve, uint32_t field, uint32_t op, const void *a, const void *b, void *out, uint64_t n) } */
    public static FunctionDescriptor cuzk_field_op$descriptor() {
        return cuzk_field_op.DESC;
    }

    public static MethodHandle cuzk_field_op$handle() {
        return cuzk_field_op.HANDLE;
    }

    public static MemorySegment cuzk_field_op$address() {
        return cuzk_field_op.ADDR;
    }

    public static int cuzk_field_op(int curve, int field, int op, MemorySegment a, MemorySegment b, MemorySegment out, long n) {
        var mh$ = cuzk_field_op.HANDLE;
        try {
            return (int) mh$.invokeExact(curve, field, op, a, b, out, n);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_point_op {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG_LONG);
        static final MemorySegment ADDR = findOrThrow("cuzk_point_op");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_point_op(uint32_t curve, uint32_t group, uint32_t op, const void *a, const void *b, void *out, uint64_t n) } */
    public static FunctionDescriptor cuzk_point_op$descriptor() {
        return cuzk_point_op.DESC;
    }

    public static MethodHandle cuzk_point_op$handle() {
        return cuzk_point_op.HANDLE;
    }

    public static MemorySegment cuzk_point_op$address() {
        return cuzk_point_op.ADDR;
    }

    public static int cuzk_point_op(int curve, int group, int op, MemorySegment a, MemorySegment b, MemorySegment out, long n) {
        var mh$ = cuzk_point_op.HANDLE;
        try {
            return (int) mh$.invokeExact(curve, group, op, a, b, out, n);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_msm {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_msm");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_msm(const cuzk_msm_config *config, const void *bases, const void *scalars, void *result) } */
    public static FunctionDescriptor cuzk_msm$descriptor() {
        return cuzk_msm.DESC;
    }

    public static MethodHandle cuzk_msm$handle() {
        return cuzk_msm.HANDLE;
    }

    public static MemorySegment cuzk_msm$address() {
        return cuzk_msm.ADDR;
    }

    public static int cuzk_msm(MemorySegment config, MemorySegment bases, MemorySegment scalars, MemorySegment result) {
        var mh$ = cuzk_msm.HANDLE;
        try {
            return (int) mh$.invokeExact(config, bases, scalars, result);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_ntt {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_ntt");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_ntt(const cuzk_ntt_config *config, void *data) } */
    public static FunctionDescriptor cuzk_ntt$descriptor() {
        return cuzk_ntt.DESC;
    }

    public static MethodHandle cuzk_ntt$handle() {
        return cuzk_ntt.HANDLE;
    }

    public static MemorySegment cuzk_ntt$address() {
        return cuzk_ntt.ADDR;
    }

    public static int cuzk_ntt(MemorySegment config, MemorySegment data) {
        var mh$ = cuzk_ntt.HANDLE;
        try {
            return (int) mh$.invokeExact(config, data);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_emulate_msm {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_emulate_msm");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_emulate_msm(const cuzk_msm_config *config, const void *bases, const void *scalars, void *result) } */
    public static FunctionDescriptor cuzk_emulate_msm$descriptor() {
        return cuzk_emulate_msm.DESC;
    }

    public static MethodHandle cuzk_emulate_msm$handle() {
        return cuzk_emulate_msm.HANDLE;
    }

    public static MemorySegment cuzk_emulate_msm$address() {
        return cuzk_emulate_msm.ADDR;
    }

    public static int cuzk_emulate_msm(MemorySegment config, MemorySegment bases, MemorySegment scalars, MemorySegment result) {
        var mh$ = cuzk_emulate_msm.HANDLE;
        try {
            return (int) mh$.invokeExact(config, bases, scalars, result);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_emulate_ntt {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_emulate_ntt");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_emulate_ntt(const cuzk_ntt_config *config, void *data) } */
    public static FunctionDescriptor cuzk_emulate_ntt$descriptor() {
        return cuzk_emulate_ntt.DESC;
    }

    public static MethodHandle cuzk_emulate_ntt$handle() {
        return cuzk_emulate_ntt.HANDLE;
    }

    public static MemorySegment cuzk_emulate_ntt$address() {
        return cuzk_emulate_ntt.ADDR;
    }

    public static int cuzk_emulate_ntt(MemorySegment config, MemorySegment data) {
        var mh$ = cuzk_emulate_ntt.HANDLE;
        try {
            return (int) mh$.invokeExact(config, data);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_groth16_abc {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_groth16_abc");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_groth16_abc(const cuzk_abc_config *config, void *a, void *b, void *c) } */
    public static FunctionDescriptor cuzk_groth16_abc$descriptor() {
        return cuzk_groth16_abc.DESC;
    }

    public static MethodHandle cuzk_groth16_abc$handle() {
        return cuzk_groth16_abc.HANDLE;
    }

    public static MemorySegment cuzk_groth16_abc$address() {
        return cuzk_groth16_abc.ADDR;
    }

    public static int cuzk_groth16_abc(MemorySegment config, MemorySegment a, MemorySegment b, MemorySegment c) {
        var mh$ = cuzk_groth16_abc.HANDLE;
        try {
            return (int) mh$.invokeExact(config, a, b, c);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_groth16_h {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_groth16_h");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_groth16_h(const cuzk_h_config *config, void *a, void *b, void *c) } */
    public static FunctionDescriptor cuzk_groth16_h$descriptor() {
        return cuzk_groth16_h.DESC;
    }

    public static MethodHandle cuzk_groth16_h$handle() {
        return cuzk_groth16_h.HANDLE;
    }

    public static MemorySegment cuzk_groth16_h$address() {
        return cuzk_groth16_h.ADDR;
    }

    public static int cuzk_groth16_h(MemorySegment config, MemorySegment a, MemorySegment b, MemorySegment c) {
        var mh$ = cuzk_groth16_h.HANDLE;
        try {
            return (int) mh$.invokeExact(config, a, b, c);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_points_decode {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_points_decode");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_points_decode(const cuzk_codec_config *config, const void *src, void *dst, cuzk_check_result *result) } */
    public static FunctionDescriptor cuzk_points_decode$descriptor() {
        return cuzk_points_decode.DESC;
    }

    public static MethodHandle cuzk_points_decode$handle() {
        return cuzk_points_decode.HANDLE;
    }

    public static MemorySegment cuzk_points_decode$address() {
        return cuzk_points_decode.ADDR;
    }

    public static int cuzk_points_decode(MemorySegment config, MemorySegment src, MemorySegment dst, MemorySegment result) {
        var mh$ = cuzk_points_decode.HANDLE;
        try {
            return (int) mh$.invokeExact(config, src, dst, result);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_points_encode {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_points_encode");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_points_encode(const cuzk_codec_config *config, const void *src, void *dst) } */
    public static FunctionDescriptor cuzk_points_encode$descriptor() {
        return cuzk_points_encode.DESC;
    }

    public static MethodHandle cuzk_points_encode$handle() {
        return cuzk_points_encode.HANDLE;
    }

    public static MemorySegment cuzk_points_encode$address() {
        return cuzk_points_encode.ADDR;
    }

    public static int cuzk_points_encode(MemorySegment config, MemorySegment src, MemorySegment dst) {
        var mh$ = cuzk_points_encode.HANDLE;
        try {
            return (int) mh$.invokeExact(config, src, dst);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_scalars_decode {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_scalars_decode");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_scalars_decode(const cuzk_codec_config *config, const void *src, void *dst, cuzk_check_result *result) } */
    public static FunctionDescriptor cuzk_scalars_decode$descriptor() {
        return cuzk_scalars_decode.DESC;
    }

    public static MethodHandle cuzk_scalars_decode$handle() {
        return cuzk_scalars_decode.HANDLE;
    }

    public static MemorySegment cuzk_scalars_decode$address() {
        return cuzk_scalars_decode.ADDR;
    }

    public static int cuzk_scalars_decode(MemorySegment config, MemorySegment src, MemorySegment dst, MemorySegment result) {
        var mh$ = cuzk_scalars_decode.HANDLE;
        try {
            return (int) mh$.invokeExact(config, src, dst, result);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_scalars_encode {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_scalars_encode");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_scalars_encode(const cuzk_codec_config *config, const void *src, void *dst) } */
    public static FunctionDescriptor cuzk_scalars_encode$descriptor() {
        return cuzk_scalars_encode.DESC;
    }

    public static MethodHandle cuzk_scalars_encode$handle() {
        return cuzk_scalars_encode.HANDLE;
    }

    public static MemorySegment cuzk_scalars_encode$address() {
        return cuzk_scalars_encode.ADDR;
    }

    public static int cuzk_scalars_encode(MemorySegment config, MemorySegment src, MemorySegment dst) {
        var mh$ = cuzk_scalars_encode.HANDLE;
        try {
            return (int) mh$.invokeExact(config, src, dst);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_host_alloc {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_host_alloc");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_host_alloc(const cuzk_host_config *config, void **out, const void *copy_from, void *reserved) } */
    public static FunctionDescriptor cuzk_host_alloc$descriptor() {
        return cuzk_host_alloc.DESC;
    }

    public static MethodHandle cuzk_host_alloc$handle() {
        return cuzk_host_alloc.HANDLE;
    }

    public static MemorySegment cuzk_host_alloc$address() {
        return cuzk_host_alloc.ADDR;
    }

    public static int cuzk_host_alloc(MemorySegment config, MemorySegment out, MemorySegment copy_from, MemorySegment reserved) {
        var mh$ = cuzk_host_alloc.HANDLE;
        try {
            return (int) mh$.invokeExact(config, out, copy_from, reserved);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

    private static final class cuzk_host_free {
        // the same shape as cuzk_host_alloc: the linker makes one stub for both
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cuzk_host_free");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cuzk_status_t cuzk_host_free(const cuzk_host_config *config, void *p, void *reserved0, void *reserved1) } */
    public static FunctionDescriptor cuzk_host_free$descriptor() {
        return cuzk_host_free.DESC;
    }

    public static MethodHandle cuzk_host_free$handle() {
        return cuzk_host_free.HANDLE;
    }

    public static MemorySegment cuzk_host_free$address() {
        return cuzk_host_free.ADDR;
    }

    public static int cuzk_host_free(MemorySegment config, MemorySegment p, MemorySegment reserved0, MemorySegment reserved1) {
        var mh$ = cuzk_host_free.HANDLE;
        try {
            return (int) mh$.invokeExact(config, p, reserved0, reserved1);
        } catch (Throwable ex$) {
            throw unexpected(ex$);
        }
    }

}
