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
 * {@snippet lang=c : struct cuzk_curve_info }
 * Sizes of a curve's fields and points as the native library lays them out. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_curve_info {
    private cuzk_curve_info() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("fp_bytes"),
            cuzk_h.C_INT.withName("fr_bytes"),
            cuzk_h.C_INT.withName("g1_affine_bytes"),
            cuzk_h.C_INT.withName("g2_affine_bytes"),
            cuzk_h.C_INT.withName("fr_two_adicity"),
            cuzk_h.C_INT.withName("fr_bits"),
            cuzk_h.C_INT.withName("fp_bits")
    ).withName("cuzk_curve_info");

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

    private static final OfInt fp_bytes$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fp_bytes"));
    private static final long fp_bytes$OFFSET = $LAYOUT.byteOffset(groupElement("fp_bytes"));

    public static OfInt fp_bytes$layout() {
        return fp_bytes$LAYOUT;
    }

    public static long fp_bytes$offset() {
        return fp_bytes$OFFSET;
    }

    public static int fp_bytes(MemorySegment struct) {
        return struct.get(fp_bytes$LAYOUT, fp_bytes$OFFSET);
    }

    public static void fp_bytes(MemorySegment struct, int fieldValue) {
        struct.set(fp_bytes$LAYOUT, fp_bytes$OFFSET, fieldValue);
    }

    private static final OfInt fr_bytes$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fr_bytes"));
    private static final long fr_bytes$OFFSET = $LAYOUT.byteOffset(groupElement("fr_bytes"));

    public static OfInt fr_bytes$layout() {
        return fr_bytes$LAYOUT;
    }

    public static long fr_bytes$offset() {
        return fr_bytes$OFFSET;
    }

    public static int fr_bytes(MemorySegment struct) {
        return struct.get(fr_bytes$LAYOUT, fr_bytes$OFFSET);
    }

    public static void fr_bytes(MemorySegment struct, int fieldValue) {
        struct.set(fr_bytes$LAYOUT, fr_bytes$OFFSET, fieldValue);
    }

    private static final OfInt g1_affine_bytes$LAYOUT = (OfInt) $LAYOUT.select(groupElement("g1_affine_bytes"));
    private static final long g1_affine_bytes$OFFSET = $LAYOUT.byteOffset(groupElement("g1_affine_bytes"));

    public static OfInt g1_affine_bytes$layout() {
        return g1_affine_bytes$LAYOUT;
    }

    public static long g1_affine_bytes$offset() {
        return g1_affine_bytes$OFFSET;
    }

    public static int g1_affine_bytes(MemorySegment struct) {
        return struct.get(g1_affine_bytes$LAYOUT, g1_affine_bytes$OFFSET);
    }

    public static void g1_affine_bytes(MemorySegment struct, int fieldValue) {
        struct.set(g1_affine_bytes$LAYOUT, g1_affine_bytes$OFFSET, fieldValue);
    }

    private static final OfInt g2_affine_bytes$LAYOUT = (OfInt) $LAYOUT.select(groupElement("g2_affine_bytes"));
    private static final long g2_affine_bytes$OFFSET = $LAYOUT.byteOffset(groupElement("g2_affine_bytes"));

    public static OfInt g2_affine_bytes$layout() {
        return g2_affine_bytes$LAYOUT;
    }

    public static long g2_affine_bytes$offset() {
        return g2_affine_bytes$OFFSET;
    }

    public static int g2_affine_bytes(MemorySegment struct) {
        return struct.get(g2_affine_bytes$LAYOUT, g2_affine_bytes$OFFSET);
    }

    public static void g2_affine_bytes(MemorySegment struct, int fieldValue) {
        struct.set(g2_affine_bytes$LAYOUT, g2_affine_bytes$OFFSET, fieldValue);
    }

    private static final OfInt fr_two_adicity$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fr_two_adicity"));
    private static final long fr_two_adicity$OFFSET = $LAYOUT.byteOffset(groupElement("fr_two_adicity"));

    public static OfInt fr_two_adicity$layout() {
        return fr_two_adicity$LAYOUT;
    }

    public static long fr_two_adicity$offset() {
        return fr_two_adicity$OFFSET;
    }

    public static int fr_two_adicity(MemorySegment struct) {
        return struct.get(fr_two_adicity$LAYOUT, fr_two_adicity$OFFSET);
    }

    public static void fr_two_adicity(MemorySegment struct, int fieldValue) {
        struct.set(fr_two_adicity$LAYOUT, fr_two_adicity$OFFSET, fieldValue);
    }

    private static final OfInt fr_bits$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fr_bits"));
    private static final long fr_bits$OFFSET = $LAYOUT.byteOffset(groupElement("fr_bits"));

    public static OfInt fr_bits$layout() {
        return fr_bits$LAYOUT;
    }

    public static long fr_bits$offset() {
        return fr_bits$OFFSET;
    }

    public static int fr_bits(MemorySegment struct) {
        return struct.get(fr_bits$LAYOUT, fr_bits$OFFSET);
    }

    public static void fr_bits(MemorySegment struct, int fieldValue) {
        struct.set(fr_bits$LAYOUT, fr_bits$OFFSET, fieldValue);
    }

    private static final OfInt fp_bits$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fp_bits"));
    private static final long fp_bits$OFFSET = $LAYOUT.byteOffset(groupElement("fp_bits"));

    public static OfInt fp_bits$layout() {
        return fp_bits$LAYOUT;
    }

    public static long fp_bits$offset() {
        return fp_bits$OFFSET;
    }

    public static int fp_bits(MemorySegment struct) {
        return struct.get(fp_bits$LAYOUT, fp_bits$OFFSET);
    }

    public static void fp_bits(MemorySegment struct, int fieldValue) {
        struct.set(fp_bits$LAYOUT, fp_bits$OFFSET, fieldValue);
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
