package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** {@link ScalarVector#firstNotBelowR()} (cuzk_scalars_decode checking CANONICAL) against r as BigInteger arithmetic gives it. */
class ScalarCheckTest {
    private static final BigInteger TOP = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

    @Test
    void findsTheLowestValueNotBelowR() {
        for (Curve c : Curve.values()) {
            BigInteger r = c.r();
            try (Arena arena = Arena.ofConfined()) {
                // several thousand values, so that the native check splits them across threads
                int n = 5000;
                ScalarVector v = ScalarVector.allocate(arena, c, n, ScalarForm.CANONICAL);
                for (int i = 0; i < n; i++) {
                    v.set(i, r.subtract(BigInteger.valueOf(1 + i)));
                }
                assertEquals(-1, v.firstNotBelowR(), c + ": r - 1 - i are all below r");
                v.set(4321, r);
                assertEquals(4321, v.firstNotBelowR(), c + ": r itself");
                v.set(300, TOP);
                assertEquals(300, v.firstNotBelowR(), c + ": the lowest of two");
                v.set(300, r.subtract(BigInteger.ONE));
                v.set(4321, r.add(BigInteger.ONE.shiftLeft(200)));
                assertEquals(4321, v.firstNotBelowR(), c + ": differs from r in a middle word only");
                v.set(4321, BigInteger.ZERO);
                v.set(0, r.add(BigInteger.ONE));
                assertEquals(0, v.firstNotBelowR(), c + ": the first value");
                assertEquals(-1, v.slice(1, n - 1).firstNotBelowR(), c + ": a slice past it");
                assertEquals(-1, ScalarVector.allocate(arena, c, 0, ScalarForm.CANONICAL).firstNotBelowR());
            }
        }
        // BLS12-381's r is above BN254's: a BLS12-381 scalar near its r is not a BN254 scalar
        try (Arena arena = Arena.ofConfined()) {
            ScalarVector v = ScalarVector.allocate(arena, Curve.BN254, 2, ScalarForm.CANONICAL);
            v.set(1, Curve.BLS12_381.r().subtract(BigInteger.ONE));
            assertEquals(1, v.firstNotBelowR());
        }
    }

    /** The decoder reorders big-endian scalars before it compares them with r, and still writes dst. */
    @Test
    void bigEndianScalarsAreCheckedAfterReordering() {
        BigInteger r = Curve.BN254.r();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment src = a.allocate(64, 8);
            byte[] below = toBytes32(r.subtract(BigInteger.ONE));
            byte[] atR = toBytes32(r);
            MemorySegment.copy(below, 0, src, ValueLayout.JAVA_BYTE, 0, 32);
            MemorySegment.copy(atR, 0, src, ValueLayout.JAVA_BYTE, 32, 32);
            MemorySegment cfg = cuzk_codec_config.allocate(a);
            cuzk_codec_config.curve(cfg, Curve.BN254.id());
            cuzk_codec_config.encoding(cfg, Encoding.EIP196.id());
            cuzk_codec_config.checks(cfg, Check.mask(EnumSet.of(Check.CANONICAL)));
            cuzk_codec_config.count(cfg, 1);
            MemorySegment dst = a.allocate(64, 8);
            MemorySegment result = cuzk_check_result.allocate(a);
            assertEquals(0, cuzk_h.cuzk_scalars_decode(cfg, src, dst, result));
            ScalarVector out = ScalarVector.wrap(Curve.BN254, ScalarForm.CANONICAL, dst.asSlice(0, 32));
            assertEquals(r.subtract(BigInteger.ONE), out.get(0));
            cuzk_codec_config.count(cfg, 2);
            assertEquals(Status.NOT_CANONICAL.code(), cuzk_h.cuzk_scalars_decode(cfg, src, dst, result));
            assertEquals(1, cuzk_check_result.index(result));
            cuzk_codec_config.checks(cfg, 0); // unchecked, as Codec.decodeScalars decodes: kept as is
            assertEquals(0, cuzk_h.cuzk_scalars_decode(cfg, src, dst, result));
            assertEquals(r, ScalarVector.wrap(Curve.BN254, ScalarForm.CANONICAL, dst.asSlice(32, 32)).get(0));
        }
    }

    private static byte[] toBytes32(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, out, 32 - n, n);
        return out;
    }

    @Test
    void aClosedVectorIsRefused() {
        ScalarVector v;
        try (Arena arena = Arena.ofConfined()) {
            v = ScalarVector.allocate(arena, Curve.BN254, 4, ScalarForm.CANONICAL);
        }
        ScalarVector closed = v;
        assertThrows(IllegalStateException.class, closed::firstNotBelowR);
    }
}
