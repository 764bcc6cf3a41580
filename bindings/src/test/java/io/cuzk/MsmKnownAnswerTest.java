package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MSMs with a known answer at any size: with bases m_i·G, sum k_i·(m_i·G) = (sum k_i·m_i mod r)·G,
 * where the right side is one scalar multiplication of a sum computed in BigInteger. Run over every
 * window width, thread count and scalar form, since each changes the code path.
 * (The comparison with an independent implementation, @noble/curves, is in the tests module.)
 */
class MsmKnownAnswerTest {
    record Case(Curve curve, Group group) {}

    static Case[] cases() {
        return new Case[] {new Case(Curve.BN254, Group.G1), new Case(Curve.BN254, Group.G2), new Case(Curve.BLS12_381, Group.G1),
                new Case(Curve.BLS12_381, Group.G2)};
    }

    static Point knownAnswer(Case c, int n, long seed, Arena a, PointVector[] basesOut, ScalarVector[] scalarsOut,
            ScalarForm form) {
        Random rnd = new Random(seed);
        Point g = Points.generator(c.curve, c.group);
        PointVector gs = PointVector.allocate(a, c.curve, c.group, n);
        ScalarVector m = ScalarVector.allocate(a, c.curve, n, ScalarForm.CANONICAL);
        ScalarVector k = ScalarVector.allocate(a, c.curve, n, form);
        BigInteger sum = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            gs.set(i, g);
            BigInteger mi = new BigInteger(40, rnd);
            BigInteger ki = switch (i % 5) {
                case 0 -> BigInteger.ZERO;
                case 1 -> c.curve.r().subtract(BigInteger.ONE);
                default -> new BigInteger(form == ScalarForm.CANONICAL ? 256 : 255, rnd);
            };
            m.set(i, mi);
            k.set(i, ki);
            sum = sum.add(mi.multiply(ki));
        }
        PointVector bases = PointVector.allocate(a, c.curve, c.group, n);
        Points.multiply(gs, m, bases);
        basesOut[0] = bases;
        scalarsOut[0] = k;
        return Points.multiply(g, sum.mod(c.curve.r()));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyWindowWidthAndThreadCountGivesTheKnownAnswer(Case c) {
        int n = 777; // not a power of two
        try (Arena a = Arena.ofConfined()) {
            PointVector[] b = new PointVector[1];
            ScalarVector[] s = new ScalarVector[1];
            Point expected = knownAnswer(c, n, 42, a, b, s, ScalarForm.CANONICAL);
            assertTrue(!expected.isInfinity());
            for (int w : new int[] {0, 2, 3, 4, 7, 8, 11, 16}) {
                for (int t : new int[] {1, 2, 3}) {
                    assertEquals(expected, new CpuBackend(t, w).msm(b[0], s[0]), c + " window " + w + " threads " + t);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void montgomeryScalarsGiveTheSameAnswer(Case c) {
        try (Arena a = Arena.ofConfined()) {
            PointVector[] b = new PointVector[1];
            ScalarVector[] s = new ScalarVector[1];
            Point expected = knownAnswer(c, 300, 9, a, b, s, ScalarForm.MONTGOMERY);
            assertEquals(expected, Backend.cpu().msm(b[0], s[0]));
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void emptyAndSingleInputs(Case c) {
        try (Arena a = Arena.ofConfined()) {
            PointVector none = PointVector.allocate(a, c.curve, c.group, 0);
            ScalarVector noScalars = ScalarVector.allocate(a, c.curve, 0, ScalarForm.CANONICAL);
            assertTrue(Backend.cpu().msm(none, noScalars).isInfinity(), "n = 0 gives infinity");
            PointVector one = PointVector.allocate(a, c.curve, c.group, 1);
            one.set(0, Points.generator(c.curve, c.group));
            ScalarVector k = ScalarVector.allocate(a, c.curve, 1, ScalarForm.CANONICAL);
            for (BigInteger v : new BigInteger[] {BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, c.curve.r(),
                    c.curve.r().add(BigInteger.ONE), BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE)}) {
                k.set(0, v);
                assertEquals(Points.multiply(Points.generator(c.curve, c.group), v.mod(c.curve.r())), Backend.cpu().msm(one, k),
                        "n = 1, k = " + v);
            }
            assertEquals(Points.doubled(Points.generator(c.curve, c.group)),
                    Points.add(Points.generator(c.curve, c.group), Points.generator(c.curve, c.group)), "add of equal points doubles");
        }
    }
}
