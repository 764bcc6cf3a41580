package io.cuzk.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c : struct cuzk_library_info }
 * Library facts: ABI version, whether CUDA was compiled in, threads, NTT limit, version and build strings. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_library_info {
    private cuzk_library_info() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("abi_version"),
            cuzk_h.C_INT.withName("cuda_compiled"),
            cuzk_h.C_INT.withName("hardware_threads"),
            cuzk_h.C_INT.withName("max_ntt_log_size"),
            cuzk_h.C_INT.withName("cpu_isa"),
            cuzk_h.C_INT.withName("cpu_isa_available"),
            cuzk_h.C_POINTER.withName("version"),
            cuzk_h.C_POINTER.withName("build")
    ).withName("cuzk_library_info");

    /** The struct's layout. */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final OfInt abi_version$LAYOUT = (OfInt) $LAYOUT.select(groupElement("abi_version"));
    private static final long abi_version$OFFSET = $LAYOUT.byteOffset(groupElement("abi_version"));

    public static OfInt abi_version$layout() {
        return abi_version$LAYOUT;
    }

    public static long abi_version$offset() {
        return abi_version$OFFSET;
    }

    public static int abi_version(MemorySegment struct) {
        return struct.get(abi_version$LAYOUT, abi_version$OFFSET);
    }

    public static void abi_version(MemorySegment struct, int fieldValue) {
        struct.set(abi_version$LAYOUT, abi_version$OFFSET, fieldValue);
    }

    private static final OfInt cuda_compiled$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cuda_compiled"));
    private static final long cuda_compiled$OFFSET = $LAYOUT.byteOffset(groupElement("cuda_compiled"));

    public static OfInt cuda_compiled$layout() {
        return cuda_compiled$LAYOUT;
    }

    public static long cuda_compiled$offset() {
        return cuda_compiled$OFFSET;
    }

    public static int cuda_compiled(MemorySegment struct) {
        return struct.get(cuda_compiled$LAYOUT, cuda_compiled$OFFSET);
    }

    public static void cuda_compiled(MemorySegment struct, int fieldValue) {
        struct.set(cuda_compiled$LAYOUT, cuda_compiled$OFFSET, fieldValue);
    }

    private static final OfInt hardware_threads$LAYOUT = (OfInt) $LAYOUT.select(groupElement("hardware_threads"));
    private static final long hardware_threads$OFFSET = $LAYOUT.byteOffset(groupElement("hardware_threads"));

    public static OfInt hardware_threads$layout() {
        return hardware_threads$LAYOUT;
    }

    public static long hardware_threads$offset() {
        return hardware_threads$OFFSET;
    }

    public static int hardware_threads(MemorySegment struct) {
        return struct.get(hardware_threads$LAYOUT, hardware_threads$OFFSET);
    }

    public static void hardware_threads(MemorySegment struct, int fieldValue) {
        struct.set(hardware_threads$LAYOUT, hardware_threads$OFFSET, fieldValue);
    }

    private static final OfInt max_ntt_log_size$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_ntt_log_size"));
    private static final long max_ntt_log_size$OFFSET = $LAYOUT.byteOffset(groupElement("max_ntt_log_size"));

    public static OfInt max_ntt_log_size$layout() {
        return max_ntt_log_size$LAYOUT;
    }

    public static long max_ntt_log_size$offset() {
        return max_ntt_log_size$OFFSET;
    }

    public static int max_ntt_log_size(MemorySegment struct) {
        return struct.get(max_ntt_log_size$LAYOUT, max_ntt_log_size$OFFSET);
    }

    public static void max_ntt_log_size(MemorySegment struct, int fieldValue) {
        struct.set(max_ntt_log_size$LAYOUT, max_ntt_log_size$OFFSET, fieldValue);
    }

    private static final OfInt cpu_isa$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cpu_isa"));
    private static final long cpu_isa$OFFSET = $LAYOUT.byteOffset(groupElement("cpu_isa"));

    public static OfInt cpu_isa$layout() {
        return cpu_isa$LAYOUT;
    }

    public static long cpu_isa$offset() {
        return cpu_isa$OFFSET;
    }

    public static int cpu_isa(MemorySegment struct) {
        return struct.get(cpu_isa$LAYOUT, cpu_isa$OFFSET);
    }

    public static void cpu_isa(MemorySegment struct, int fieldValue) {
        struct.set(cpu_isa$LAYOUT, cpu_isa$OFFSET, fieldValue);
    }

    private static final OfInt cpu_isa_available$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cpu_isa_available"));
    private static final long cpu_isa_available$OFFSET = $LAYOUT.byteOffset(groupElement("cpu_isa_available"));

    public static OfInt cpu_isa_available$layout() {
        return cpu_isa_available$LAYOUT;
    }

    public static long cpu_isa_available$offset() {
        return cpu_isa_available$OFFSET;
    }

    public static int cpu_isa_available(MemorySegment struct) {
        return struct.get(cpu_isa_available$LAYOUT, cpu_isa_available$OFFSET);
    }

    public static void cpu_isa_available(MemorySegment struct, int fieldValue) {
        struct.set(cpu_isa_available$LAYOUT, cpu_isa_available$OFFSET, fieldValue);
    }

    private static final AddressLayout version$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("version"));
    private static final long version$OFFSET = $LAYOUT.byteOffset(groupElement("version"));

    public static AddressLayout version$layout() {
        return version$LAYOUT;
    }

    public static long version$offset() {
        return version$OFFSET;
    }

    public static MemorySegment version(MemorySegment struct) {
        return struct.get(version$LAYOUT, version$OFFSET);
    }

    public static void version(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(version$LAYOUT, version$OFFSET, fieldValue);
    }

    private static final AddressLayout build$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("build"));
    private static final long build$OFFSET = $LAYOUT.byteOffset(groupElement("build"));

    public static AddressLayout build$layout() {
        return build$LAYOUT;
    }

    public static long build$offset() {
        return build$OFFSET;
    }

    public static MemorySegment build(MemorySegment struct) {
        return struct.get(build$LAYOUT, build$OFFSET);
    }

    public static void build(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(build$LAYOUT, build$OFFSET, fieldValue);
    }

    /** A zeroed struct from the allocator. */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(layout());
    }

    /** Views the struct at the given address, scoped to the given arena. */
    public static MemorySegment reinterpret(MemorySegment addr, Arena arena) {
        return addr.reinterpret(layout().byteSize(), arena, null);
    }
}
