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
 * {@snippet lang=c : struct cuzk_msm_config }
 * Arguments of {@code cuzk_msm}. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_msm_config {
    private cuzk_msm_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("group"),
            cuzk_h.C_INT.withName("scalar_form"),
            cuzk_h.C_INT.withName("window_bits"),
            cuzk_h.C_INT.withName("threads"),
            cuzk_h.C_INT.withName("flags"),
            cuzk_h.C_LONG_LONG.withName("count")
    ).withName("cuzk_msm_config");

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

    private static final OfInt group$LAYOUT = (OfInt) $LAYOUT.select(groupElement("group"));
    private static final long group$OFFSET = $LAYOUT.byteOffset(groupElement("group"));

    public static OfInt group$layout() {
        return group$LAYOUT;
    }

    public static long group$offset() {
        return group$OFFSET;
    }

    public static int group(MemorySegment struct) {
        return struct.get(group$LAYOUT, group$OFFSET);
    }

    public static void group(MemorySegment struct, int fieldValue) {
        struct.set(group$LAYOUT, group$OFFSET, fieldValue);
    }

    private static final OfInt scalar_form$LAYOUT = (OfInt) $LAYOUT.select(groupElement("scalar_form"));
    private static final long scalar_form$OFFSET = $LAYOUT.byteOffset(groupElement("scalar_form"));

    public static OfInt scalar_form$layout() {
        return scalar_form$LAYOUT;
    }

    public static long scalar_form$offset() {
        return scalar_form$OFFSET;
    }

    public static int scalar_form(MemorySegment struct) {
        return struct.get(scalar_form$LAYOUT, scalar_form$OFFSET);
    }

    public static void scalar_form(MemorySegment struct, int fieldValue) {
        struct.set(scalar_form$LAYOUT, scalar_form$OFFSET, fieldValue);
    }

    private static final OfInt window_bits$LAYOUT = (OfInt) $LAYOUT.select(groupElement("window_bits"));
    private static final long window_bits$OFFSET = $LAYOUT.byteOffset(groupElement("window_bits"));

    public static OfInt window_bits$layout() {
        return window_bits$LAYOUT;
    }

    public static long window_bits$offset() {
        return window_bits$OFFSET;
    }

    public static int window_bits(MemorySegment struct) {
        return struct.get(window_bits$LAYOUT, window_bits$OFFSET);
    }

    public static void window_bits(MemorySegment struct, int fieldValue) {
        struct.set(window_bits$LAYOUT, window_bits$OFFSET, fieldValue);
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

    private static final OfLong count$LAYOUT = (OfLong) $LAYOUT.select(groupElement("count"));
    private static final long count$OFFSET = $LAYOUT.byteOffset(groupElement("count"));

    public static OfLong count$layout() {
        return count$LAYOUT;
    }

    public static long count$offset() {
        return count$OFFSET;
    }

    public static long count(MemorySegment struct) {
        return struct.get(count$LAYOUT, count$OFFSET);
    }

    public static void count(MemorySegment struct, long fieldValue) {
        struct.set(count$LAYOUT, count$OFFSET, fieldValue);
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
