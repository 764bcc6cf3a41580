package io.cuzk;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.commons.lang3.Validate;

/**
 * One affine point, held on the heap in the native layout (little-endian Montgomery coordinates,
 * all zeros for infinity). Immutable.
 */
public final class Point {
    private final Curve curve;
    private final Group group;
    private final byte[] bytes;

    Point(Curve curve, Group group, byte[] nativeBytes) {
        this.curve = curve;
        this.group = group;
        this.bytes = nativeBytes;
    }

    /** The point from its native bytes (copied); nothing is checked. */
    public static Point ofNative(Curve curve, Group group, byte[] nativeBytes) {
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.isTrue(nativeBytes.length == curve.pointBytes(group), "a %s %s point has %d native bytes, not %d",
                curve.cliName(), group, curve.pointBytes(group), nativeBytes.length);
        return new Point(curve, group, nativeBytes.clone());
    }

    /**
     * The point with the given affine coordinates in normal form: x, y for G1; x.c0, x.c1, y.c0,
     * y.c1 for G2. Each must be in [0, p). Nothing else is checked.
     */
    public static Point ofCoordinates(Curve curve, Group group, BigInteger... coordinates) {
        Validate.isTrue(coordinates.length == 2 * group.degree(), "a %s point has %d coordinates, not %d", group,
                2 * group.degree(), coordinates.length);
        int fb = curve.fpBytes();
        byte[] out = new byte[curve.pointBytes(group)];
        for (int i = 0; i < coordinates.length; i++) {
            BigInteger c = coordinates[i];
            Validate.isTrue(c.signum() >= 0 && c.compareTo(curve.p()) < 0, "coordinate %d is not in [0, p)", i);
            BigInteger mont = c.multiply(curve.fpRadix()).mod(curve.p());
            putLe(out, i * fb, fb, mont);
        }
        return new Point(curve, group, out);
    }

    /**
     * -P, computed here (no native call): y becomes p - y, which holds in Montgomery form too.
     * Infinity stays itself.
     */
    public Point negated() {
        if (isInfinity()) {
            return this;
        }
        int fb = curve.fpBytes();
        int half = bytes.length / 2; // x, then y (G2: each of two Fp elements)
        byte[] out = bytes.clone();
        for (int c = 0; c < group.degree(); c++) {
            int off = half + c * fb;
            BigInteger y = getLe(bytes, off, fb);
            putLe(out, off, fb, y.signum() == 0 ? y : curve.p().subtract(y));
        }
        return new Point(curve, group, out);
    }

    /**
     * phi(P) = (beta x, y) of a G1 point, computed here (no native call; x times beta holds in
     * Montgomery form too): [lambda]P ({@link Curve#g1Lambda()}) for every point of BN254's G1 and
     * for BLS12-381's points in the prime-order subgroup. Infinity stays itself.
     */
    public Point endomorphism() {
        Validate.isTrue(group == Group.G1, "the endomorphism (beta x, y) is of G1 points, not %s", group);
        if (isInfinity()) {
            return this;
        }
        int fb = curve.fpBytes();
        byte[] out = bytes.clone();
        putLe(out, 0, fb, getLe(bytes, 0, fb).multiply(curve.g1Beta()).mod(curve.p()));
        return new Point(curve, group, out);
    }

    /** The point at infinity. */
    public static Point infinity(Curve curve, Group group) {
        return new Point(curve, group, new byte[curve.pointBytes(group)]);
    }

    public Curve curve() {
        return curve;
    }

    public Group group() {
        return group;
    }

    public boolean isInfinity() {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** A copy of the native bytes. */
    public byte[] nativeBytes() {
        return bytes.clone();
    }

    /**
     * Affine coordinates in normal form (x, y; or x.c0, x.c1, y.c0, y.c1 for G2); all zero for
     * infinity.
     */
    public BigInteger[] coordinates() {
        int fb = curve.fpBytes();
        int n = 2 * group.degree();
        BigInteger rInv = curve.fpRadix().modInverse(curve.p());
        BigInteger[] out = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            out[i] = getLe(bytes, i * fb, fb).multiply(rInv).mod(curve.p());
        }
        return out;
    }

    /** The point in an external encoding. */
    public byte[] encode(Encoding encoding) {
        return Codec.encode(this, encoding);
    }

    static void putLe(byte[] out, int off, int len, BigInteger v) {
        byte[] be = v.toByteArray();
        for (int i = 0; i < len; i++) {
            int src = be.length - 1 - i;
            out[off + i] = src >= 0 ? be[src] : 0;
        }
    }

    static BigInteger getLe(byte[] in, int off, int len) {
        byte[] be = new byte[len + 1];
        for (int i = 0; i < len; i++) {
            be[len - i] = in[off + i];
        }
        return new BigInteger(be);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Point p && p.curve == curve && p.group == group && Arrays.equals(p.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + curve.hashCode() + group.hashCode();
    }

    @Override
    public String toString() {
        if (isInfinity()) {
            return curve.cliName() + " " + group + " infinity";
        }
        StringBuilder sb = new StringBuilder(curve.cliName()).append(' ').append(group).append(" (");
        BigInteger[] c = coordinates();
        for (int i = 0; i < c.length; i++) {
            sb.append(i == 0 ? "" : ", ").append("0x").append(c[i].toString(16));
        }
        return sb.append(')').toString();
    }

    /** Hex of the native bytes, for logs. */
    public String nativeHex() {
        return HexFormat.of().formatHex(bytes);
    }
}
