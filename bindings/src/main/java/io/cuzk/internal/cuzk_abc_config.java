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
 * {@snippet lang=c : struct cuzk_abc_config }
 * Arguments of {@code cuzk_groth16_abc}. Hand-written in jextract's shape; {@code LayoutTest} checks it against the C compiler's
 * {@code sizeof} and {@code offsetof} for the same header.
 */
@SuppressWarnings("unused")
public final class cuzk_abc_config {
    private cuzk_abc_config() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cuzk_h.C_INT.withName("curve"),
            cuzk_h.C_INT.withName("threads"),
            cuzk_h.C_LONG_LONG.withName("n_coeffs"),
            cuzk_h.C_LONG_LONG.withName("n_vars"),
            cuzk_h.C_LONG_LONG.withName("domain_size"),
            cuzk_h.C_POINTER.withName("coeffs"),
            cuzk_h.C_POINTER.withName("witness")
    ).withName("cuzk_abc_config");

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

    private static final OfLong n_coeffs$LAYOUT = (OfLong) $LAYOUT.select(groupElement("n_coeffs"));
    private static final long n_coeffs$OFFSET = $LAYOUT.byteOffset(groupElement("n_coeffs"));

    public static OfLong n_coeffs$layout() {
        return n_coeffs$LAYOUT;
    }

    public static long n_coeffs$offset() {
        return n_coeffs$OFFSET;
    }

    public static long n_coeffs(MemorySegment struct) {
        return struct.get(n_coeffs$LAYOUT, n_coeffs$OFFSET);
    }

    public static void n_coeffs(MemorySegment struct, long fieldValue) {
        struct.set(n_coeffs$LAYOUT, n_coeffs$OFFSET, fieldValue);
    }

    private static final OfLong n_vars$LAYOUT = (OfLong) $LAYOUT.select(groupElement("n_vars"));
    private static final long n_vars$OFFSET = $LAYOUT.byteOffset(groupElement("n_vars"));

    public static OfLong n_vars$layout() {
        return n_vars$LAYOUT;
    }

    public static long n_vars$offset() {
        return n_vars$OFFSET;
    }

    public static long n_vars(MemorySegment struct) {
        return struct.get(n_vars$LAYOUT, n_vars$OFFSET);
    }

    public static void n_vars(MemorySegment struct, long fieldValue) {
        struct.set(n_vars$LAYOUT, n_vars$OFFSET, fieldValue);
    }

    private static final OfLong domain_size$LAYOUT = (OfLong) $LAYOUT.select(groupElement("domain_size"));
    private static final long domain_size$OFFSET = $LAYOUT.byteOffset(groupElement("domain_size"));

    public static OfLong domain_size$layout() {
        return domain_size$LAYOUT;
    }

    public static long domain_size$offset() {
        return domain_size$OFFSET;
    }

    public static long domain_size(MemorySegment struct) {
        return struct.get(domain_size$LAYOUT, domain_size$OFFSET);
    }

    public static void domain_size(MemorySegment struct, long fieldValue) {
        struct.set(domain_size$LAYOUT, domain_size$OFFSET, fieldValue);
    }

    private static final AddressLayout coeffs$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("coeffs"));
    private static final long coeffs$OFFSET = $LAYOUT.byteOffset(groupElement("coeffs"));

    public static AddressLayout coeffs$layout() {
        return coeffs$LAYOUT;
    }

    public static long coeffs$offset() {
        return coeffs$OFFSET;
    }

    public static MemorySegment coeffs(MemorySegment struct) {
        return struct.get(coeffs$LAYOUT, coeffs$OFFSET);
    }

    /**
     * Stores the address as the 64-bit word it is (the library is built for 64-bit platforms only;
     * LayoutTest checks the field's size): an AddressLayout access would make the JDK generate its
     * var handle on first use, about 15 ms of a one-shot proof command.
     */
    public static void coeffs(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ValueLayout.JAVA_LONG, coeffs$OFFSET, fieldValue.address());
    }

    private static final AddressLayout witness$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("witness"));
    private static final long witness$OFFSET = $LAYOUT.byteOffset(groupElement("witness"));

    public static AddressLayout witness$layout() {
        return witness$LAYOUT;
    }

    public static long witness$offset() {
        return witness$OFFSET;
    }

    public static MemorySegment witness(MemorySegment struct) {
        return struct.get(witness$LAYOUT, witness$OFFSET);
    }

    /**
     * Stores the address as the 64-bit word it is (the library is built for 64-bit platforms only;
     * LayoutTest checks the field's size): an AddressLayout access would make the JDK generate its
     * var handle on first use, about 15 ms of a one-shot proof command.
     */
    public static void witness(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ValueLayout.JAVA_LONG, witness$OFFSET, fieldValue.address());
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
