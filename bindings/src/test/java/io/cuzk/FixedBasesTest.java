package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fixed-base sums against Straus's sums ({@link Points#sum}, checked against @noble/curves) and
 * against the points' multiples one by one: both groups, edge scalars (0, 1, r - 1, r, 2^256 - 1,
 * negative, digits of 8 and carries through every window) and points at infinity.
 */
class FixedBasesTest {
    static List<BigInteger> scalars(Curve c, int n, Random rnd) {
        BigInteger[] edge = {BigInteger.ZERO, BigInteger.ONE, c.r().subtract(BigInteger.ONE), c.r(),
            BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), BigInteger.valueOf(-5),
            new BigInteger("8".repeat(63), 16), new BigInteger("9".repeat(63), 16), new BigInteger("f".repeat(63), 16)};
        List<BigInteger> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(i < edge.length && rnd.nextBoolean() ? edge[i] : new BigInteger(256, rnd));
        }
        return s;
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void sumsEqualStrausAndTheMultiplesOneByOne(Curve c) {
        Random rnd = new Random(c.ordinal() + 3);
        for (Group g : Group.values()) {
            for (int n : new int[] {1, 2, 3, 9, 17}) {
                List<Point> points = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    points.add(i % 5 == 4 ? Point.infinity(c, g) : Points.multiply(Points.generator(c, g), new BigInteger(200, rnd)));
                }
                FixedBases table = FixedBases.of(points);
                assertEquals(n, table.size());
                for (int round = 0; round < 6; round++) {
                    List<BigInteger> s = scalars(c, n, rnd);
                    Point expected = Points.sum(points, s);
                    assertEquals(expected, table.sum(s), c + " " + g + " n=" + n + " " + s);
                    if (round == 0) {
                        Point one = Point.infinity(c, g);
                        for (int i = 0; i < n; i++) {
                            one = Points.add(one, Points.multiply(points.get(i), s.get(i).mod(c.r())));
                        }
                        assertEquals(one, table.sum(s), c + " " + g + " n=" + n + " by multiples");
                    }
                }
            }
        }
    }

    @Test
    void badCallsAreRefusedNamingWhatIsWrong() {
        Curve c = Curve.BN254;
        FixedBases table = FixedBases.of(List.of(Points.generator(c, Group.G1), Points.generator(c, Group.G1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> table.sum(List.of(BigInteger.ONE)));
        assertTrue(e.getMessage().contains("1 scalars for 2 points"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> FixedBases.of(List.of(Points.generator(c, Group.G1), Points.generator(c, Group.G2))));
        assertTrue(e.getMessage().contains("point 1 is a bn254 G2 point"), e.getMessage());
        try (Arena a = Arena.ofConfined()) {
            PointVector p = PointVector.allocate(a, c, Group.G1, 2);
            p.set(0, Points.generator(c, Group.G1));
            p.set(1, Points.generator(c, Group.G1));
            MemorySegment bytes = a.allocate(ValueLayout.JAVA_LONG);
            Checked.check(cuzk_h.cuzk_fixed_prepare(c.id(), Group.G1.id(), MemorySegment.NULL, 2, MemorySegment.NULL, bytes), "size");
            long size = bytes.get(ValueLayout.JAVA_LONG, 0);
            assertEquals(32 + 2 * 65 * 8 * 64, size);
            MemorySegment t = a.allocate(size, 8);
            bytes.set(ValueLayout.JAVA_LONG, 0, size - 1);
            CuzkException small = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_fixed_prepare(c.id(), Group.G1.id(), p.segment(), 2, t, bytes), "cuzk_fixed_prepare"));
            assertTrue(small.getMessage().contains("the table needs " + size), small.getMessage());
            ScalarVector s = ScalarVector.allocate(a, Curve.BLS12_381, 3, ScalarForm.CANONICAL);
            MemorySegment out = a.allocate(192, 8);
            CuzkException notMade = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_fixed_sum(c.id(), Group.G1.id(), t, 2, s.segment(), out), "cuzk_fixed_sum"));
            assertTrue(notMade.getMessage().contains("not made by cuzk_fixed_prepare"), notMade.getMessage());
            bytes.set(ValueLayout.JAVA_LONG, 0, size);
            Checked.check(cuzk_h.cuzk_fixed_prepare(c.id(), Group.G1.id(), p.segment(), 2, t, bytes), "cuzk_fixed_prepare");
            CuzkException other = assertThrows(CuzkException.class, () -> Checked.check(
                    cuzk_h.cuzk_fixed_sum(Curve.BLS12_381.id(), Group.G1.id(), t, 2, s.segment(), out), "cuzk_fixed_sum"));
            assertTrue(other.getMessage().contains("the table is for bn254 G1, not bls12-381 G1"), other.getMessage());
            CuzkException count = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_fixed_sum(c.id(), Group.G1.id(), t, 3, s.segment(), out), "cuzk_fixed_sum"));
            assertTrue(count.getMessage().contains("holds 2 points, not 3"), count.getMessage());
        }
    }
}
