package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * Group operations on single points and element-wise over vectors, by the native library's
 * arithmetic (the same code as the kernels). Inputs are trusted: check untrusted points first.
 */
public final class Points {
    private Points() {}

    private static final int ADD = 0;
    private static final int DOUBLE = 1;
    private static final int NEG = 2;
    private static final int MUL = 3;
    private static final int GENERATOR = 4;
    private static final int MUL_SUBGROUP = 5;

    /** The standard generator of the group. */
    public static Point generator(Curve curve, Group group) {
        NativeLibrary.require();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(curve.pointBytes(group), 8);
            Checked.check(cuzk_h.cuzk_point_op(curve.id(), group.id(), GENERATOR, MemorySegment.NULL, MemorySegment.NULL, out, 1),
                    "cuzk_point_op(generator)");
            return new Point(curve, group, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    public static Point add(Point p, Point q) {
        NativeLibrary.require();
        Validate.isTrue(p.curve() == q.curve() && p.group() == q.group(), "cannot add a %s %s point to a %s %s point",
                p.curve().cliName(), p.group(), q.curve().cliName(), q.group());
        return single(ADD, p, q.nativeBytes());
    }

    public static Point doubled(Point p) {
        NativeLibrary.require();
        return single(DOUBLE, p, null);
    }

    public static Point negate(Point p) {
        NativeLibrary.require();
        return single(NEG, p, null);
    }

    /** [k]p for any k >= 0 below 2^256. */
    public static Point multiply(Point p, BigInteger k) {
        NativeLibrary.require();
        Validate.isTrue(k.signum() >= 0 && k.bitLength() <= 256, "the scalar must be in [0, 2^256)");
        byte[] le = new byte[Curve.SCALAR_BYTES];
        Point.putLe(le, 0, le.length, k);
        return single(MUL, p, le);
    }

    /**
     * The linear combination sum [k_i] p_i (scalars taken mod r), in one native call: an MSM over
     * a few points on one thread. A proof's assembly is made of such sums, and one call instead of
     * a chain of additions and multiplications also spares a process the linking of a second call
     * shape.
     */
    public static Point sum(List<Point> points, List<BigInteger> scalars) {
        NativeLibrary.require();
        Validate.isTrue(!points.isEmpty() && points.size() == scalars.size(), "%d points and %d scalars: expected as many, at least one",
                points.size(), scalars.size());
        Curve c = points.get(0).curve();
        Group g = points.get(0).group();
        try (Arena a = Arena.ofConfined()) {
            PointVector pv = PointVector.allocate(a, c, g, points.size());
            ScalarVector sv = ScalarVector.allocate(a, c, points.size(), ScalarForm.CANONICAL);
            for (int i = 0; i < points.size(); i++) {
                Point p = points.get(i);
                Validate.isTrue(p.curve() == c && p.group() == g, "point %d is a %s %s point, not %s %s", i, p.curve().cliName(),
                        p.group(), c.cliName(), g);
                pv.set(i, p);
                sv.set(i, scalars.get(i).mod(c.r()));
            }
            return SUMS.msm(pv, sv);
        }
    }

    private static final Backend SUMS = Backend.cpu(1);

    /** out[i] = [scalars[i]] points[i] for canonical scalars; out must be 8-byte aligned, points may sit anywhere. */
    public static void multiply(PointVector points, ScalarVector scalars, PointVector out) {
        multiply(points, scalars, out, MUL);
    }

    /**
     * {@link #multiply(PointVector, ScalarVector, PointVector)} for points the caller knows to be in
     * the prime-order subgroup (not checked: for another point the result is not [k]P, but differs
     * from it by a point of the cofactor's order): in G1 the native library then splits each scalar
     * by the curve's endomorphism ({@link Curve#g1Lambda()}), about half the cost. BN254's G1 is
     * all of its curve, so there both methods are the same.
     */
    public static void multiplyInSubgroup(PointVector points, ScalarVector scalars, PointVector out) {
        multiply(points, scalars, out, MUL_SUBGROUP);
    }

    private static void multiply(PointVector points, ScalarVector scalars, PointVector out, int op) {
        NativeLibrary.require();
        Validate.isTrue(scalars.form() == ScalarForm.CANONICAL, "the scalars must be in canonical form");
        Validate.isTrue(points.size() == scalars.size() && points.size() == out.size(), "the vectors differ in size: %d points, %d scalars, %d out",
                points.size(), scalars.size(), out.size());
        Validate.isTrue(points.curve() == out.curve() && points.group() == out.group() && points.curve() == scalars.curve(),
                "the vectors are of different curves or groups");
        Validate.isTrue(out.segment().address() % 8 == 0, "the output vector must be 8-byte aligned (the input points may sit anywhere)");
        if (points.size() == 0) {
            return;
        }
        Checked.check(cuzk_h.cuzk_point_op(points.curve().id(), points.group().id(), op, points.segment(), scalars.segment(),
                out.segment(), points.size()), "cuzk_point_op(multiply)");
    }

    private static Point single(int op, Point p, byte[] b) {
        Curve c = p.curve();
        Group g = p.group();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment in = a.allocate(c.pointBytes(g), 8);
            MemorySegment.copy(MemorySegment.ofArray(p.nativeBytes()), 0, in, 0, in.byteSize());
            MemorySegment second = MemorySegment.NULL;
            if (b != null) {
                second = a.allocate(b.length, 8);
                MemorySegment.copy(MemorySegment.ofArray(b), 0, second, 0, b.length);
            }
            MemorySegment out = a.allocate(c.pointBytes(g), 8);
            Checked.check(cuzk_h.cuzk_point_op(c.id(), g.id(), op, in, second, out, 1), "cuzk_point_op");
            return new Point(c, g, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }
}
