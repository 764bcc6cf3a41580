package io.cuzk.jmh;

import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Random;

/** Benchmark inputs: random points and scalars, generated once per trial. */
final class Inputs {
    /** Distinct points generated; larger vectors repeat them (an MSM's cost does not depend on repeats). */
    static final int DISTINCT = 4096;

    private Inputs() {}

    static PointVector points(Arena arena, Curve curve, Group group, int n, long seed) {
        Random rnd = new Random(seed);
        int distinct = Math.min(n, DISTINCT);
        PointVector gs = PointVector.allocate(arena, curve, group, distinct);
        ScalarVector k = ScalarVector.allocate(arena, curve, distinct, ScalarForm.CANONICAL);
        Point g = Points.generator(curve, group);
        for (int i = 0; i < distinct; i++) {
            gs.set(i, g);
            k.set(i, new BigInteger(255, rnd));
        }
        PointVector base = PointVector.allocate(arena, curve, group, distinct);
        Points.multiply(gs, k, base);
        PointVector out = PointVector.allocate(arena, curve, group, n);
        long chunk = base.segment().byteSize();
        for (long off = 0; off < out.segment().byteSize(); off += chunk) {
            MemorySegment.copy(base.segment(), 0, out.segment(), off, Math.min(chunk, out.segment().byteSize() - off));
        }
        return out;
    }

    static ScalarVector scalars(Arena arena, Curve curve, int n, ScalarForm form, long seed) {
        Random rnd = new Random(seed);
        ScalarVector s = ScalarVector.allocate(arena, curve, n, form);
        for (int i = 0; i < n; i++) {
            s.set(i, new BigInteger(256, rnd).mod(curve.r()));
        }
        return s;
    }
}
