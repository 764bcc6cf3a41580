package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Points.sum against the definition, built from additions and multiplications of the generator. */
class PointsSumTest {
    @ParameterizedTest
    @EnumSource(Curve.class)
    void aLinearCombinationIsTheGeneratorTimesTheCombinedScalar(Curve c) {
        Random rnd = new Random(c.ordinal() + 5);
        for (Group g : Group.values()) {
            Point gen = Points.generator(c, g);
            BigInteger r = c.r();
            BigInteger[] m = {new BigInteger(250, rnd), BigInteger.TWO, new BigInteger(200, rnd), BigInteger.ZERO};
            List<Point> points = List.of(Points.multiply(gen, m[0]), Points.multiply(gen, m[1]), Points.multiply(gen, m[2]),
                    Points.multiply(gen, m[3])); // the last is the point at infinity
            // one, a scalar above r, a negative one, and any multiple of infinity
            List<BigInteger> k = List.of(BigInteger.ONE, r.add(BigInteger.valueOf(7)), BigInteger.valueOf(-3), new BigInteger(255, rnd));
            BigInteger total = BigInteger.ZERO;
            for (int i = 0; i < 4; i++) {
                total = total.add(m[i].multiply(k.get(i)));
            }
            assertEquals(Points.multiply(gen, total.mod(r)), Points.sum(points, k), c + " " + g);
            assertEquals(Points.multiply(gen, BigInteger.ZERO), Points.sum(List.of(gen), List.of(r)), "r times anything is infinity");
        }
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void mixedOrMismatchedInputsAreRefused(Curve c) {
        Point g1 = Points.generator(c, Group.G1), g2 = Points.generator(c, Group.G2);
        assertThrows(IllegalArgumentException.class, () -> Points.sum(List.of(g1, g2), List.of(BigInteger.ONE, BigInteger.ONE)));
        assertThrows(IllegalArgumentException.class, () -> Points.sum(List.of(g1), List.of()));
        assertThrows(IllegalArgumentException.class, () -> Points.sum(List.of(), List.of()));
    }
}
