package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** {@link ScalarVector#firstNotBelowR()} (cuzk_scalars_check) against r as BigInteger arithmetic gives it. */
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
