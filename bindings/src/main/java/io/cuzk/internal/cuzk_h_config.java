package io.cuzk.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;

/**
 * {@snippet lang=c : struct cuzk_h_config }
 * Arguments of {@code cuzk_groth16_h}. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_h_config {
    private cuzk_h_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("log_n"),
            cuzk_h.C_INT.withName("threads"),
            cuzk_h.C_INT.withName("flags")
    ).withName("cuzk_h_config");

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

    /** A zeroed struct from the allocator. */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(layout());
    }

    /** Views the struct at the given address, scoped to the given arena. */
    public static MemorySegment reinterpret(MemorySegment addr, Arena arena) {
        return addr.reinterpret(layout().byteSize(), arena, null);
    }
}
