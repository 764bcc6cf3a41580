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
 * A few points summed again and again with new scalars (a Groth16 verification key's IC, summed
 * with every proof's public signals), with their multiples computed once: for each point P and
 * j = 0..64, 1..8 times 16^j P. {@link #sum} then costs one addition per nonzero signed radix-16
 * digit of each scalar and no doubling, about a third of {@link Points#sum}. Immutable and
 * thread-safe; native memory (65 x 8 points a point: 33 KiB for a BN254 G1 point, 49 KiB for
 * BLS12-381) freed when this object is unreachable.
 */
public final class FixedBases {
    private final Curve curve;
    private final Group group;
    private final int size;
    private final MemorySegment table;

    private FixedBases(Curve curve, Group group, int size, MemorySegment table) {
        this.curve = curve;
        this.group = group;
        this.size = size;
        this.table = table;
    }

    /** The multiples of the points (one curve and group, at least one, at most 2^20; infinity allowed). */
    public static FixedBases of(List<Point> points) {
        NativeLibrary.require();
        Validate.isTrue(points != null && !points.isEmpty(), "no points to prepare");
        Validate.isTrue(points.size() <= 1 << 20, "at most 2^20 points, not %d", points.size());
        Curve c = points.get(0).curve();
        Group g = points.get(0).group();
        try (Arena a = Arena.ofConfined()) {
            PointVector pv = PointVector.allocate(a, c, g, points.size());
            for (int i = 0; i < points.size(); i++) {
                Point p = points.get(i);
                Validate.isTrue(p.curve() == c && p.group() == g, "point %d is a %s %s point, not %s %s", i, p.curve().cliName(),
                        p.group(), c.cliName(), g);
                pv.set(i, p);
            }
            MemorySegment bytes = a.allocate(ValueLayout.JAVA_LONG);
            Checked.check(cuzk_h.cuzk_fixed_prepare(c.id(), g.id(), MemorySegment.NULL, points.size(), MemorySegment.NULL, bytes),
                    "cuzk_fixed_prepare");
            MemorySegment table = Arena.ofAuto().allocate(bytes.get(ValueLayout.JAVA_LONG, 0), 8);
            Checked.check(cuzk_h.cuzk_fixed_prepare(c.id(), g.id(), pv.segment(), points.size(), table, bytes), "cuzk_fixed_prepare");
            return new FixedBases(c, g, points.size(), table);
        }
    }

    public Curve curve() {
        return curve;
    }

    public Group group() {
        return group;
    }

    /** The number of points. */
    public int size() {
        return size;
    }

    /** sum scalars[i] P_i (the scalars reduced mod r; as many as the points). */
    public Point sum(List<BigInteger> scalars) {
        Validate.isTrue(scalars != null && scalars.size() == size, "%d scalars for %d points: expected as many",
                scalars == null ? 0 : scalars.size(), size);
        try (Arena a = Arena.ofConfined()) {
            ScalarVector sv = ScalarVector.allocate(a, curve, size, ScalarForm.CANONICAL);
            for (int i = 0; i < size; i++) {
                BigInteger v = scalars.get(i);
                sv.set(i, v.signum() < 0 || v.bitLength() > 256 ? v.mod(curve.r()) : v); // the native side reduces the rest
            }
            MemorySegment out = a.allocate(curve.pointBytes(group), 8);
            Checked.check(cuzk_h.cuzk_fixed_sum(curve.id(), group.id(), table, size, sv.segment(), out), "cuzk_fixed_sum");
            return Point.ofNative(curve, group, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }
}
