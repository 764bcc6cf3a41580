package io.cuzk;

import org.apache.commons.lang3.Validate;

/**
 * The point sets of a Groth16 proving key that a proof's MSMs read: A, B1 and C in G1 and B2 in G2
 * over the witness (C from signal nPublic + 1 on), and H in G1 over h, one point per element of
 * the domain. How a key file lays them out is the prover's business; the kernels need only these.
 *
 * @param nVars the witness's length: 1, the public signals, then the private ones
 * @param nPublic the public signals (C's points start after them)
 */
public record Groth16Bases(Curve curve, int nVars, int nPublic, PointVector a, PointVector b1, PointVector b2, PointVector c,
        PointVector h) {
    public Groth16Bases {
        Validate.notNull(curve, "curve");
        for (PointVector v : new PointVector[] {a, b1, b2, c, h}) {
            Validate.notNull(v, "a point set");
            Validate.isTrue(v.curve() == curve, "a point set is of %s, not %s", v.curve().cliName(), curve.cliName());
        }
        Validate.isTrue(a.group() == Group.G1 && b1.group() == Group.G1 && c.group() == Group.G1 && h.group() == Group.G1
                && b2.group() == Group.G2, "A, B1, C and H are G1 points, B2 G2 points");
        Validate.isTrue(nPublic >= 0 && nVars > nPublic, "%d public signals in a witness of %d values", nPublic, nVars);
        Validate.isTrue(a.size() == nVars && b1.size() == nVars && b2.size() == nVars, "A, B1 and B2 need %d points each", nVars);
        Validate.isTrue(c.size() == nVars - nPublic - 1L, "C needs %d points, not %d", nVars - nPublic - 1L, c.size());
        long n = h.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "H's %d points are not a power-of-two domain", n);
    }

    /** The domain's size: H's points. */
    public int domainSize() {
        return (int) h.size();
    }
}
