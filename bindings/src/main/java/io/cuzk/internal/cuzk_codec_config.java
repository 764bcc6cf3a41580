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
 * {@snippet lang=c : struct cuzk_codec_config }
 * Arguments of the point and scalar codecs (which also check points and scalars). Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_codec_config {
    private cuzk_codec_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("group"),
            cuzk_h.C_INT.withName("encoding"),
            cuzk_h.C_INT.withName("checks"),
            cuzk_h.C_INT.withName("threads"),
            cuzk_h.C_INT.withName("flags"),
            cuzk_h.C_LONG_LONG.withName("count"),
            cuzk_h.C_LONG_LONG.withName("src_stride"),
            cuzk_h.C_LONG_LONG.withName("dst_stride")
    ).withName("cuzk_codec_config");

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

    private static final OfInt encoding$LAYOUT = (OfInt) $LAYOUT.select(groupElement("encoding"));
    private static final long encoding$OFFSET = $LAYOUT.byteOffset(groupElement("encoding"));

    public static OfInt encoding$layout() {
        return encoding$LAYOUT;
    }

    public static long encoding$offset() {
        return encoding$OFFSET;
    }

    public static int encoding(MemorySegment struct) {
        return struct.get(encoding$LAYOUT, encoding$OFFSET);
    }

    public static void encoding(MemorySegment struct, int fieldValue) {
        struct.set(encoding$LAYOUT, encoding$OFFSET, fieldValue);
    }

    private static final OfInt checks$LAYOUT = (OfInt) $LAYOUT.select(groupElement("checks"));
    private static final long checks$OFFSET = $LAYOUT.byteOffset(groupElement("checks"));

    public static OfInt checks$layout() {
        return checks$LAYOUT;
    }

    public static long checks$offset() {
        return checks$OFFSET;
    }

    public static int checks(MemorySegment struct) {
        return struct.get(checks$LAYOUT, checks$OFFSET);
    }

    public static void checks(MemorySegment struct, int fieldValue) {
        struct.set(checks$LAYOUT, checks$OFFSET, fieldValue);
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

    private static final OfLong src_stride$LAYOUT = (OfLong) $LAYOUT.select(groupElement("src_stride"));
    private static final long src_stride$OFFSET = $LAYOUT.byteOffset(groupElement("src_stride"));

    public static OfLong src_stride$layout() {
        return src_stride$LAYOUT;
    }

    public static long src_stride$offset() {
        return src_stride$OFFSET;
    }

    public static long src_stride(MemorySegment struct) {
        return struct.get(src_stride$LAYOUT, src_stride$OFFSET);
    }

    public static void src_stride(MemorySegment struct, long fieldValue) {
        struct.set(src_stride$LAYOUT, src_stride$OFFSET, fieldValue);
    }

    private static final OfLong dst_stride$LAYOUT = (OfLong) $LAYOUT.select(groupElement("dst_stride"));
    private static final long dst_stride$OFFSET = $LAYOUT.byteOffset(groupElement("dst_stride"));

    public static OfLong dst_stride$layout() {
        return dst_stride$LAYOUT;
    }

    public static long dst_stride$offset() {
        return dst_stride$OFFSET;
    }

    public static long dst_stride(MemorySegment struct) {
        return struct.get(dst_stride$LAYOUT, dst_stride$OFFSET);
    }

    public static void dst_stride(MemorySegment struct, long fieldValue) {
        struct.set(dst_stride$LAYOUT, dst_stride$OFFSET, fieldValue);
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
