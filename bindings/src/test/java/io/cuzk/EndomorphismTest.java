package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * G1's endomorphism phi(x, y) = (beta x, y) and the multiplication that splits scalars by it (GLV,
 * BN254's G1): phi is [lambda] on the prime-order subgroup, and the split multiplication agrees
 * with the MSM's (another algorithm) on every kind of scalar.
 */
class EndomorphismTest {
    @ParameterizedTest
    @EnumSource(Curve.class)
    void phiIsMultiplicationByLambdaOnTheSubgroup(Curve c) {
        Random rnd = new Random(c.ordinal() + 11);
        Point gen = Points.generator(c, Group.G1);
        assertEquals(Points.multiply(gen, c.g1Lambda()), gen.endomorphism());
        for (int i = 0; i < 5; i++) {
            Point p = Points.multiply(gen, new BigInteger(250, rnd));
            assertEquals(Points.multiply(p, c.g1Lambda()), p.endomorphism(), c + " point " + i);
            // phi^2 + phi + 1 = 0
            assertEquals(Point.infinity(c, Group.G1), Points.add(Points.add(p.endomorphism().endomorphism(), p.endomorphism()), p));
        }
        assertEquals(Point.infinity(c, Group.G1), Point.infinity(c, Group.G1).endomorphism());
        assertEquals(BigInteger.ONE, c.g1Lambda().modPow(BigInteger.valueOf(3), c.r()), "lambda is a cube root of one in Fr");
        assertEquals(BigInteger.ONE, c.g1Beta().modPow(BigInteger.valueOf(3), c.p()), "beta is a cube root of one in Fp");
    }

    /** BLS12-381's G1 has a cofactor: off the subgroup, phi is not [lambda]. */
    @Test
    void offTheSubgroupPhiIsNotLambda() {
        Curve c = Curve.BLS12_381;
        BigInteger p = c.p();
        BigInteger x = BigInteger.valueOf(5);
        while (true) {
            BigInteger rhs = x.pow(3).add(BigInteger.valueOf(4)).mod(p);
            BigInteger y = rhs.modPow(p.add(BigInteger.ONE).shiftRight(2), p); // p = 3 mod 4
            if (y.multiply(y).mod(p).equals(rhs)) {
                Point q = Point.ofCoordinates(c, Group.G1, x, y);
                assertNotEquals(Point.infinity(c, Group.G1), Points.multiply(q, c.r()), "the point is outside the subgroup");
                assertNotEquals(Points.multiply(q, c.g1Lambda()), q.endomorphism());
                // the multiplication for subgroup points splits lambda into (0, 1): phi, not [lambda]
                try (Arena a = Arena.ofConfined()) {
                    PointVector pv = PointVector.allocate(a, c, Group.G1, 1);
                    PointVector out = PointVector.allocate(a, c, Group.G1, 1);
                    ScalarVector sv = ScalarVector.allocate(a, c, 1, ScalarForm.CANONICAL);
                    pv.set(0, q);
                    sv.set(0, c.g1Lambda());
                    Points.multiplyInSubgroup(pv, sv, out);
                    assertEquals(q.endomorphism(), out.get(0));
                }
                return;
            }
            x = x.add(BigInteger.ONE);
        }
    }

    /**
     * The multiplications split by lambda (BN254's G1 multiplication, and both curves' for points
     * in the subgroup) against the one-point MSM, single and vectored.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void splitMultiplicationAgreesWithTheMsmOnEveryKindOfScalar(Curve c) {
        Random rnd = new Random(23 + c.ordinal());
        BigInteger r = c.r(), lambda = c.g1Lambda();
        BigInteger max = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);
        List<BigInteger> scalars = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, r.subtract(BigInteger.ONE), r,
                r.add(BigInteger.ONE), max, lambda, r.subtract(lambda), lambda.add(BigInteger.ONE), BigInteger.ONE.shiftLeft(128),
                BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE)));
        for (int i = 0; i < 8; i++) {
            scalars.add(new BigInteger(256, rnd));
            scalars.add(new BigInteger(64, rnd).add(new BigInteger(64, rnd).multiply(lambda)).mod(r)); // the verifier's coefficients
            scalars.add(new BigInteger(128, rnd));
        }
        Point gen = Points.generator(c, Group.G1);
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < scalars.size(); i++) {
            points.add(i == 3 ? Point.infinity(c, Group.G1) : Points.multiply(gen, new BigInteger(253, rnd)));
        }
        try (Arena a = Arena.ofConfined()) {
            PointVector pv = PointVector.allocate(a, c, Group.G1, points.size());
            ScalarVector sv = ScalarVector.allocate(a, c, points.size(), ScalarForm.CANONICAL);
            PointVector out = PointVector.allocate(a, c, Group.G1, points.size());
            PointVector inSubgroup = PointVector.allocate(a, c, Group.G1, points.size());
            for (int i = 0; i < points.size(); i++) {
                pv.set(i, points.get(i));
                sv.set(i, scalars.get(i));
            }
            Points.multiply(pv, sv, out);
            Points.multiplyInSubgroup(pv, sv, inSubgroup);
            for (int i = 0; i < points.size(); i++) {
                Point expected = Points.sum(List.of(points.get(i)), List.of(scalars.get(i)));
                assertEquals(expected, Points.multiply(points.get(i), scalars.get(i)), "scalar " + scalars.get(i));
                assertEquals(expected, out.get(i), "vectored, scalar " + scalars.get(i));
                assertEquals(expected, inSubgroup.get(i), "in the subgroup, scalar " + scalars.get(i));
            }
        }
    }
}
