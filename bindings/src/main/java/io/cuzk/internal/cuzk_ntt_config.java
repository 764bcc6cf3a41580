package io.cuzk.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c : struct cuzk_ntt_config }
 * Arguments of {@code cuzk_ntt}. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_ntt_config {
    private cuzk_ntt_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("direction"),
            cuzk_h.C_INT.withName("coset"),
            cuzk_h.C_INT.withName("log_n"),
            cuzk_h.C_INT.withName("threads"),
            cuzk_h.C_INT.withName("flags"),
            cuzk_h.C_POINTER.withName("coset_shift")
    ).withName("cuzk_ntt_config");

    /** The struct's layout. */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final OfInt curve$LAYOUT = (OfInt) $LAYOUT.select(groupElement("curve"));
    private static final long curve$OFFSET = $LAYOUT.byteOffset(groupElement("curve"));

    public static OfInt curve$layout() {
        return curve$LAYOUT;
    }

    public static long curve$offset() {
        return curve$OFFSET;
    }

    public static int curve(MemorySegment struct) {
        return struct.get(curve$LAYOUT, curve$OFFSET);
    }

    public static void curve(MemorySegment struct, int fieldValue) {
        struct.set(curve$LAYOUT, curve$OFFSET, fieldValue);
    }

    private static final OfInt direction$LAYOUT = (OfInt) $LAYOUT.select(groupElement("direction"));
    private static final long direction$OFFSET = $LAYOUT.byteOffset(groupElement("direction"));

    public static OfInt direction$layout() {
        return direction$LAYOUT;
    }

    public static long direction$offset() {
        return direction$OFFSET;
    }

    public static int direction(MemorySegment struct) {
        return struct.get(direction$LAYOUT, direction$OFFSET);
    }

    public static void direction(MemorySegment struct, int fieldValue) {
        struct.set(direction$LAYOUT, direction$OFFSET, fieldValue);
    }

    private static final OfInt coset$LAYOUT = (OfInt) $LAYOUT.select(groupElement("coset"));
    private static final long coset$OFFSET = $LAYOUT.byteOffset(groupElement("coset"));

    public static OfInt coset$layout() {
        return coset$LAYOUT;
    }

    public static long coset$offset() {
        return coset$OFFSET;
    }

    public static int coset(MemorySegment struct) {
        return struct.get(coset$LAYOUT, coset$OFFSET);
    }

    public static void coset(MemorySegment struct, int fieldValue) {
        struct.set(coset$LAYOUT, coset$OFFSET, fieldValue);
    }

    private static final OfInt log_n$LAYOUT = (OfInt) $LAYOUT.select(groupElement("log_n"));
    private static final long log_n$OFFSET = $LAYOUT.byteOffset(groupElement("log_n"));

    public static OfInt log_n$layout() {
        return log_n$LAYOUT;
    }

    public static long log_n$offset() {
        return log_n$OFFSET;
    }

    public static int log_n(MemorySegment struct) {
        return struct.get(log_n$LAYOUT, log_n$OFFSET);
    }

    public static void log_n(MemorySegment struct, int fieldValue) {
        struct.set(log_n$LAYOUT, log_n$OFFSET, fieldValue);
    }

    private static final OfInt threads$LAYOUT = (OfInt) $LAYOUT.select(groupElement("threads"));
    private static final long threads$OFFSET = $LAYOUT.byteOffset(groupElement("threads"));

    public static OfInt threads$layout() {
        return threads$LAYOUT;
    }

    public static long threads$offset() {
        return threads$OFFSET;
    }

    public static int threads(MemorySegment struct) {
        return struct.get(threads$LAYOUT, threads$OFFSET);
    }

    public static void threads(MemorySegment struct, int fieldValue) {
        struct.set(threads$LAYOUT, threads$OFFSET, fieldValue);
    }

    private static final OfInt flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("flags"));
    private static final long flags$OFFSET = $LAYOUT.byteOffset(groupElement("flags"));

    public static OfInt flags$layout() {
        return flags$LAYOUT;
    }

    public static long flags$offset() {
        return flags$OFFSET;
    }

    public static int flags(MemorySegment struct) {
        return struct.get(flags$LAYOUT, flags$OFFSET);
    }

    public static void flags(MemorySegment struct, int fieldValue) {
        struct.set(flags$LAYOUT, flags$OFFSET, fieldValue);
    }

    private static final AddressLayout coset_shift$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("coset_shift"));
    private static final long coset_shift$OFFSET = $LAYOUT.byteOffset(groupElement("coset_shift"));

    public static AddressLayout coset_shift$layout() {
        return coset_shift$LAYOUT;
    }

    public static long coset_shift$offset() {
        return coset_shift$OFFSET;
    }

    public static MemorySegment coset_shift(MemorySegment struct) {
        return struct.get(coset_shift$LAYOUT, coset_shift$OFFSET);
    }

    /**
     * Stores the address as the 64-bit word it is (the library is built for 64-bit platforms only;
     * LayoutTest checks the field's size): an AddressLayout access would make the JDK generate its
     * var handle on first use, about 15 ms of a one-shot proof command.
     */
    public static void coset_shift(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ValueLayout.JAVA_LONG, coset_shift$OFFSET, fieldValue.address());
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
