package io.cuzk.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c : struct cuzk_host_config }
 * Arguments of {@code cuzk_host_alloc} and {@code cuzk_host_free}. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_host_config {
    private cuzk_host_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_LONG_LONG.withName("bytes"),
            cuzk_h.C_INT.withName("flags"),
            cuzk_h.C_INT.withName("reserved")
    ).withName("cuzk_host_config");

    /** The struct's layout. */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final OfLong bytes$LAYOUT = (OfLong) $LAYOUT.select(groupElement("bytes"));
    private static final long bytes$OFFSET = $LAYOUT.byteOffset(groupElement("bytes"));

    public static OfLong bytes$layout() {
        return bytes$LAYOUT;
    }

    public static long bytes$offset() {
        return bytes$OFFSET;
    }

    public static long bytes(MemorySegment struct) {
        return struct.get(bytes$LAYOUT, bytes$OFFSET);
    }

    public static void bytes(MemorySegment struct, long fieldValue) {
        struct.set(bytes$LAYOUT, bytes$OFFSET, fieldValue);
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

    private static final OfInt reserved$LAYOUT = (OfInt) $LAYOUT.select(groupElement("reserved"));
    private static final long reserved$OFFSET = $LAYOUT.byteOffset(groupElement("reserved"));

    public static OfInt reserved$layout() {
        return reserved$LAYOUT;
    }

    public static long reserved$offset() {
        return reserved$OFFSET;
    }

    public static int reserved(MemorySegment struct) {
        return struct.get(reserved$LAYOUT, reserved$OFFSET);
    }

    public static void reserved(MemorySegment struct, int fieldValue) {
        struct.set(reserved$LAYOUT, reserved$OFFSET, fieldValue);
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
