package io.cuzk.it;

import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.Points;
import java.math.BigInteger;

/** Points of a curve's sextic twist outside G2, found with BigInteger arithmetic (no cuzk code). */
final class TwistPoints {
    private TwistPoints() {}

    /**
     * An affine point (x0, x1, y0, y1) of the twist E'(Fp2) that is not in G2 ([r]Q is not O), the
     * first found from x = 1 + u upwards: y = sqrt(x^3 + b') by the complex method (p = 3 mod 4).
     */
    static BigInteger[] outsideG2(Curve c) {
        BigInteger p = c.p();
        // b': 3/(9 + u) = (27 - 3u)/82 for BN254, 4 + 4u for BLS12-381
        BigInteger[] b = c == Curve.BN254
                ? new BigInteger[] {BigInteger.valueOf(27).multiply(BigInteger.valueOf(82).modInverse(p)).mod(p),
                    BigInteger.valueOf(-3).multiply(BigInteger.valueOf(82).modInverse(p)).mod(p)}
                : new BigInteger[] {BigInteger.valueOf(4), BigInteger.valueOf(4)};
        for (long k = 1;; k++) {
            BigInteger x0 = BigInteger.valueOf(k), x1 = BigInteger.ONE;
            // x^3 = (x0 + x1 u)^3 = x0^3 - 3 x0 x1^2 + (3 x0^2 x1 - x1^3) u
            BigInteger a0 = x0.pow(3).subtract(BigInteger.valueOf(3).multiply(x0).multiply(x1.pow(2))).add(b[0]).mod(p);
            BigInteger a1 = BigInteger.valueOf(3).multiply(x0.pow(2)).multiply(x1).subtract(x1.pow(3)).add(b[1]).mod(p);
            BigInteger[] y = sqrt(a0, a1, p);
            if (y == null) {
                continue;
            }
            Point q = Point.ofCoordinates(c, Group.G2, x0, x1, y[0], y[1]);
            if (!Points.multiply(q, c.r()).isInfinity()) {
                return new BigInteger[] {x0, x1, y[0], y[1]};
            }
        }
    }

    /** A square root of a0 + a1 u in Fp2 = Fp[u]/(u^2 + 1), or null: from the square root of its norm. */
    static BigInteger[] sqrt(BigInteger a0, BigInteger a1, BigInteger p) {
        BigInteger n = fpSqrt(a0.pow(2).add(a1.pow(2)).mod(p), p);
        if (n == null) {
            return null;
        }
        BigInteger half = BigInteger.TWO.modInverse(p);
        BigInteger y0 = fpSqrt(a0.add(n).multiply(half).mod(p), p);
        if (y0 == null) {
            y0 = fpSqrt(a0.subtract(n).multiply(half).mod(p), p);
        }
        if (y0 == null || y0.signum() == 0) {
            return null; // a0 + a1 u with y0 = 0 does not occur for these x
        }
        BigInteger y1 = a1.multiply(y0.shiftLeft(1).modInverse(p)).mod(p);
        return y0.pow(2).subtract(y1.pow(2)).subtract(a0).mod(p).signum() == 0 ? new BigInteger[] {y0, y1} : null;
    }

    /** A square root in Fp for p = 3 mod 4, or null. */
    static BigInteger fpSqrt(BigInteger a, BigInteger p) {
        BigInteger r = a.modPow(p.add(BigInteger.ONE).shiftRight(2), p);
        return r.multiply(r).mod(p).equals(a.mod(p)) ? r : null;
    }
}
