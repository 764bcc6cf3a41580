package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Objects;
import org.apache.commons.lang3.Validate;

/**
 * 32-byte little-endian scalars of a curve's Fr, in an off-heap segment the caller owns, held in
 * one {@link ScalarForm}. Once the segment's arena is closed every use throws
 * {@link IllegalStateException}.
 */
public final class ScalarVector {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final BigInteger MASK256 = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

    private final Curve curve;
    private final ScalarForm form;
    private final MemorySegment segment;
    private final long size;

    private ScalarVector(Curve curve, ScalarForm form, MemorySegment segment) {
        this.curve = curve;
        this.form = form;
        this.segment = segment;
        this.size = segment.byteSize() / Curve.SCALAR_BYTES;
    }

    /** n zero scalars in memory of the given arena (large vectors in huge pages: {@link HostMemory}). */
    public static ScalarVector allocate(Arena arena, Curve curve, long n, ScalarForm form) {
        Validate.notNull(arena, "arena");
        Validate.notNull(curve, "curve");
        Validate.notNull(form, "form");
        Validate.isTrue(n >= 0, "scalar count must not be negative: %d", n);
        return new ScalarVector(curve, form, HostMemory.allocate(arena, Math.multiplyExact(n, (long) Curve.SCALAR_BYTES)));
    }

    /** Views an existing segment as scalars: a whole number of 32-byte values, 8-byte aligned. */
    public static ScalarVector wrap(Curve curve, ScalarForm form, MemorySegment segment) {
        Validate.notNull(curve, "curve");
        Validate.notNull(form, "form");
        Validate.notNull(segment, "segment");
        Validate.isTrue(segment.byteSize() % Curve.SCALAR_BYTES == 0, "a scalar segment must hold whole 32-byte scalars, not %d bytes",
                segment.byteSize());
        Validate.isTrue(segment.isNative(), "scalar vectors must be off-heap segments");
        Validate.isTrue(segment.address() % 8 == 0, "the segment's address must be 8-byte aligned");
        return new ScalarVector(curve, form, segment);
    }

    public Curve curve() {
        return curve;
    }

    public ScalarForm form() {
        return form;
    }

    public long size() {
        return size;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** The scalars [from, from + count) over the same memory. */
    public ScalarVector slice(long from, long count) {
        Objects.checkFromIndexSize(from, count, size());
        return new ScalarVector(curve, form, segment.asSlice(from * Curve.SCALAR_BYTES, count * Curve.SCALAR_BYTES));
    }

    /**
     * The position of the first stored value that is not below r (every value of a snarkjs witness
     * must be), or -1 when all are below r. Checked natively on all hardware threads, so that a long
     * vector costs no Java loop.
     */
    public long firstNotBelowR() {
        NativeLibrary.require();
        if (size == 0) {
            return -1;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = Codec.config(a, curve, Group.G1, Encoding.NATIVE, size);
            cuzk_codec_config.checks(cfg, Check.mask(EnumSet.of(Check.CANONICAL)));
            MemorySegment result = cuzk_check_result.allocate(a);
            // a NULL destination: checked, not copied
            int code = cuzk_h.cuzk_scalars_decode(cfg, segment, MemorySegment.NULL, result);
            if (code == Status.NOT_CANONICAL.code()) {
                return cuzk_check_result.index(result);
            }
            Checked.check(code, "cuzk_scalars_decode");
            return -1;
        }
    }

    /**
     * Stores v at position i. In canonical form any value in [0, 2^256) is stored as it is; in
     * Montgomery form v is reduced modulo r first.
     */
    public void set(long i, BigInteger v) {
        Objects.checkIndex(i, size);
        Validate.notNull(v, "value");
        BigInteger stored;
        if (form == ScalarForm.MONTGOMERY) {
            stored = v.mod(curve.r()).multiply(curve.frRadix()).mod(curve.r());
        } else {
            Validate.isTrue(v.signum() >= 0 && v.bitLength() <= 256, "a canonical scalar must be in [0, 2^256), not %s", v);
            stored = v;
        }
        writeLe(segment, i * Curve.SCALAR_BYTES, stored);
    }

    /** The value at position i: the stored integer in canonical form, the field element (mod r) in Montgomery form. */
    public BigInteger get(long i) {
        Objects.checkIndex(i, size);
        BigInteger raw = readLe(segment, i * Curve.SCALAR_BYTES);
        if (form == ScalarForm.MONTGOMERY) {
            return raw.multiply(curve.frRadix().modInverse(curve.r())).mod(curve.r());
        }
        return raw;
    }

    static void writeLe(MemorySegment seg, long offset, BigInteger v) {
        BigInteger x = v.and(MASK256);
        for (int w = 0; w < 4; w++) {
            seg.set(LE_LONG, offset + 8L * w, x.shiftRight(64 * w).longValue());
        }
    }

    static BigInteger readLe(MemorySegment seg, long offset) {
        BigInteger x = BigInteger.ZERO;
        for (int w = 3; w >= 0; w--) {
            long word = seg.get(LE_LONG, offset + 8L * w);
            x = x.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(word)));
        }
        return x;
    }

    @Override
    public String toString() {
        return "ScalarVector[" + curve.cliName() + ", " + form + ", " + size + " scalars]";
    }
}
