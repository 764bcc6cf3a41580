package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The subgroup checks by endomorphisms (see codec/subgroup.hpp: psi on G2 of both curves, sigma on
 * G1 of BLS12-381) against their definition: random points of the curve or the twist, made here
 * with plain BigInteger arithmetic, are refused exactly when [r]P is not the point at infinity,
 * and multiples of the generator are accepted.
 */
class SubgroupCheckTest {
    /** Fp2 = Fp[u]/(u^2 + 1) in BigIntegers: [c0, c1]. */
    record Fp2(BigInteger c0, BigInteger c1, BigInteger p) {
        Fp2 mul(Fp2 o) {
            return new Fp2(c0.multiply(o.c0).subtract(c1.multiply(o.c1)).mod(p), c0.multiply(o.c1).add(c1.multiply(o.c0)).mod(p), p);
        }

        Fp2 add(Fp2 o) {
            return new Fp2(c0.add(o.c0).mod(p), c1.add(o.c1).mod(p), p);
        }

        Fp2 pow(BigInteger e) {
            Fp2 r = new Fp2(BigInteger.ONE, BigInteger.ZERO, p), b = this;
            for (int i = 0; i < e.bitLength(); i++) {
                if (e.testBit(i)) {
                    r = r.mul(b);
                }
                b = b.mul(b);
            }
            return r;
        }

        boolean isMinusOne() {
            return c0.equals(p.subtract(BigInteger.ONE)) && c1.signum() == 0;
        }

        /** A square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez, algorithm 9), or null. */
        Fp2 sqrt() {
            Fp2 a1 = pow(p.subtract(BigInteger.valueOf(3)).shiftRight(2));
            Fp2 alpha = a1.mul(a1).mul(this);
            Fp2 a0 = new Fp2(alpha.c0, alpha.c1.negate().mod(p), p).mul(alpha);
            if (a0.isMinusOne()) {
                return null;
            }
            Fp2 x0 = a1.mul(this);
            if (alpha.isMinusOne()) {
                return new Fp2(x0.c1.negate().mod(p), x0.c0, p);
            }
            return alpha.add(new Fp2(BigInteger.ONE, BigInteger.ZERO, p)).pow(p.subtract(BigInteger.ONE).shiftRight(1)).mul(x0);
        }
    }

    /** The twist's b: 3/(9 + u) for BN254, 4(1 + u) for BLS12-381. */
    static Fp2 twistB(Curve c) {
        BigInteger p = c.p();
        if (c == Curve.BN254) {
            // 1/(9 + u) = (9 - u)/82
            BigInteger inv82 = BigInteger.valueOf(82).modInverse(p);
            return new Fp2(BigInteger.valueOf(27).multiply(inv82).mod(p), BigInteger.valueOf(-3).multiply(inv82).mod(p), p);
        }
        return new Fp2(BigInteger.valueOf(4), BigInteger.valueOf(4), p);
    }

    /** A point of the twist at a random x, or null when x^3 + b' is not a square. */
    static Point randomTwistPoint(Curve c, Random rnd) {
        BigInteger p = c.p();
        Fp2 x = new Fp2(new BigInteger(p.bitLength() + 8, rnd).mod(p), new BigInteger(p.bitLength() + 8, rnd).mod(p), p);
        Fp2 y = x.mul(x).mul(x).add(twistB(c)).sqrt();
        return y == null ? null : Point.ofCoordinates(c, Group.G2, x.c0, x.c1, y.c0, y.c1);
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void refusesExactlyThePointsOutsideG2(Curve c) {
        Random rnd = new Random(11 + c.ordinal());
        BigInteger p = c.p();
        Fp2 b = twistB(c);
        int outside = 0;
        for (int made = 0; made < 40;) {
            Point pt = randomTwistPoint(c, rnd);
            if (pt == null) {
                continue;
            }
            made++;
            boolean onCurve = isAccepted(pt, EnumSet.of(Check.ON_CURVE));
            assertTrue(onCurve, "made on the twist: " + pt);
            boolean inG2 = Points.multiply(pt, c.r()).isInfinity(); // the definition: [r]P = O
            assertEquals(inG2, isAccepted(pt, Check.all()), "the subgroup check against [r]P = O for " + pt);
            outside += inG2 ? 0 : 1;
        }
        assertTrue(outside >= 30, "random twist points lie outside G2 (the cofactor is large): " + outside);
        Point g = Points.generator(c, Group.G2);
        for (int i = 0; i < 20; i++) {
            Point q = Points.multiply(g, new BigInteger(250, rnd));
            assertTrue(isAccepted(q, Check.all()), "a multiple of the generator is in G2");
        }
        // a point of G2 plus one outside it is outside
        Fp2 x = new Fp2(BigInteger.TEN, BigInteger.ONE, p);
        Fp2 y;
        while ((y = x.mul(x).mul(x).add(b).sqrt()) == null) {
            x = x.add(new Fp2(BigInteger.ONE, BigInteger.ZERO, p));
        }
        Point t = Point.ofCoordinates(c, Group.G2, x.c0, x.c1, y.c0, y.c1);
        if (!Points.multiply(t, c.r()).isInfinity()) {
            assertFalse(isAccepted(Points.add(Points.multiply(g, BigInteger.valueOf(77)), t), Check.all()));
        }
    }

    /**
     * The pairing's own check of its G2 points (cuzk_pairing_check_g2: from the point each pair's
     * Miller loop ends on) against the definition, [r]Q = O: random twist points (nearly all
     * outside G2), multiples of the generator, and G2 points plus a point outside; each at a known
     * place among pairs of G2 points, with few pairs (projective loop) and many (affine; from 32
     * on split over threads), and with its G1 point at infinity (checked on its own).
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void thePairingTellsWhichG2PointsAreOutsideG2(Curve c) {
        Random rnd = new Random(23 + c.ordinal());
        Point g1 = Points.generator(c, Group.G1), g2 = Points.generator(c, Group.G2);
        List<Point> candidates = new ArrayList<>();
        while (candidates.size() < 6) {
            Point q = randomTwistPoint(c, rnd);
            if (q != null) {
                candidates.add(q);
            }
        }
        Point outside = candidates.get(0);
        candidates.add(Points.add(Points.multiply(g2, BigInteger.valueOf(1234567)), outside)); // G2 plus a point outside
        candidates.add(Points.multiply(outside, c.r())); // the cofactor's part alone
        candidates.add(Points.multiply(g2, new BigInteger(250, rnd)));
        candidates.add(Point.infinity(c, Group.G2));
        int outsideSeen = 0;
        for (Point q : candidates) {
            boolean inG2 = Points.multiply(q, c.r()).isInfinity();
            outsideSeen += inG2 ? 0 : 1;
            // 40 pairs are split over the native threads (from 32 on, parts of at least 16): the
            // point first in the second part, and one in the last part
            for (int[] t : new int[][] {{1, 0}, {3, 1}, {9, 4}, {40, 20}, {40, 37}}) {
                int n = t[0], at = t[1];
                List<Point> ps = new ArrayList<>(), qs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ps.add(Points.multiply(g1, BigInteger.valueOf(3 + i)));
                    qs.add(i == at ? q : Points.multiply(g2, BigInteger.valueOf(5 + i)));
                }
                assertEquals(inG2 ? -1 : at, Pairing.isOneCheckingG2(ps, qs, List.of(), null, null).outsideG2(), n + " pairs, " + q);
                ps.set(at, Point.infinity(c, Group.G1)); // left out of the loop: checked on its own
                assertEquals(inG2 ? -1 : at, Pairing.isOneCheckingG2(ps, qs, List.of(), null, null).outsideG2(), n + " pairs, G1 at infinity");
            }
        }
        assertTrue(outsideSeen >= 6, "points outside G2 among the candidates: " + outsideSeen);
        // and the product's answer is the one isOne gives: e(3 G1, 5 G2) e(-15 G1, G2) = 1
        Pairing.PreparedG2 fixed = Pairing.prepare(List.of(g2));
        Pairing.G2Checked ok = Pairing.isOneCheckingG2(List.of(Points.multiply(g1, BigInteger.valueOf(3))),
                List.of(Points.multiply(g2, BigInteger.valueOf(5))), List.of(Points.multiply(g1, BigInteger.valueOf(15)).negated()), fixed, null);
        assertTrue(ok.one() && ok.outsideG2() == -1, ok.toString());
    }

    /** BLS12-381's G1 (BN254's G1 is the whole curve): random points of y^2 = x^3 + 4. */
    @org.junit.jupiter.api.Test
    void blsG1RefusesExactlyThePointsOutsideG1() {
        Curve c = Curve.BLS12_381;
        BigInteger p = c.p();
        Random rnd = new Random(5);
        int outside = 0;
        for (int made = 0; made < 60;) {
            BigInteger x = new BigInteger(p.bitLength() + 8, rnd).mod(p);
            BigInteger rhs = x.pow(3).add(BigInteger.valueOf(4)).mod(p);
            BigInteger y = rhs.modPow(p.add(BigInteger.ONE).shiftRight(2), p); // p = 3 mod 4
            if (!y.multiply(y).mod(p).equals(rhs)) {
                continue;
            }
            made++;
            Point pt = Point.ofCoordinates(c, Group.G1, x, y);
            boolean inG1 = Points.multiply(pt, c.r()).isInfinity();
            assertEquals(inG1, isAccepted(pt, Check.all()), "the subgroup check against [r]P = O for " + pt);
            outside += inG1 ? 0 : 1;
        }
        assertTrue(outside >= 50, "random curve points lie outside G1: " + outside);
        Point g = Points.generator(c, Group.G1);
        for (int i = 0; i < 20; i++) {
            assertTrue(isAccepted(Points.multiply(g, new BigInteger(250, rnd)), Check.all()), "a multiple of the generator is in G1");
        }
    }

    /**
     * Many BLS12-381 G1 points checked in one call (as a batch verification checks its proofs' A
     * and C): on x86-ifma eight at a time in vector lanes, any group with a failure checked again
     * one point at a time. On every CPU path the call names the first point outside G1, wherever
     * it sits in its group of eight, for random curve points outside G1, the points of order 3
     * (0, 2) and (0, -2), and a G1 point plus one of them; points of G1 and at infinity pass.
     */
    @org.junit.jupiter.api.Test
    void blsG1VectorsNameTheirFirstPointOutsideG1() {
        Curve c = Curve.BLS12_381;
        BigInteger p = c.p();
        Random rnd = new Random(9);
        Point g = Points.generator(c, Group.G1);
        List<Point> good = new ArrayList<>();
        for (int i = 0; i < 41; i++) {
            good.add(i % 10 == 4 ? Point.infinity(c, Group.G1) : Points.multiply(g, new BigInteger(250, rnd)));
        }
        Point three = Point.ofCoordinates(c, Group.G1, BigInteger.ZERO, BigInteger.TWO);
        List<Point> bad = new ArrayList<>(List.of(three, Point.ofCoordinates(c, Group.G1, BigInteger.ZERO, p.subtract(BigInteger.TWO)),
                Points.add(good.get(0), three)));
        while (bad.size() < 6) {
            BigInteger x = new BigInteger(p.bitLength() + 8, rnd).mod(p);
            BigInteger rhs = x.pow(3).add(BigInteger.valueOf(4)).mod(p);
            BigInteger y = rhs.modPow(p.add(BigInteger.ONE).shiftRight(2), p); // p = 3 mod 4
            if (y.multiply(y).mod(p).equals(rhs) && !Points.multiply(Point.ofCoordinates(c, Group.G1, x, y), c.r()).isInfinity()) {
                bad.add(Point.ofCoordinates(c, Group.G1, x, y));
            }
        }
        try {
            for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
                Cuzk.setCpuIsa(isa);
                try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                    PointVector all = PointVector.allocate(a, c, Group.G1, good.size());
                    for (int i = 0; i < good.size(); i++) {
                        all.set(i, good.get(i));
                    }
                    all.check(Check.all()); // passes
                    for (Point b : bad) {
                        for (int at : new int[] {0, 5, 8, 23, 40}) {
                            PointVector v = PointVector.allocate(a, c, Group.G1, good.size());
                            for (int i = 0; i < good.size(); i++) {
                                v.set(i, i == at || i == 33 ? b : good.get(i));
                            }
                            InvalidPointException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidPointException.class,
                                    () -> v.check(Check.all()), isa + " " + b + " at " + at);
                            assertEquals(Math.min(at, 33), e.index(), isa + ": the first point outside G1, " + b + " at " + at);
                            assertEquals(Status.NOT_IN_SUBGROUP, e.status(), e.getMessage());
                        }
                    }
                }
            }
        } finally {
            Cuzk.setCpuIsa(CpuIsa.AUTO);
        }
    }

    static boolean isAccepted(Point pt, java.util.Set<Check> checks) {
        try {
            Codec.decode(pt.curve(), pt.group(), Encoding.NATIVE, pt.nativeBytes(), checks);
            return true;
        } catch (InvalidPointException e) {
            assertEquals(Status.NOT_IN_SUBGROUP, e.status(), e.getMessage());
            return false;
        }
    }
}
