package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.Random;
import java.util.Set;

/**
 * {@code cuzk msm-demo}: an MSM over generated bases m_i·G with random scalars k_i,
 * checked against the single multiplication (sum k_i·m_i mod r)·G.
 */
final class DemoCommand {
    static final Set<String> OPTIONS = Set.of("curve", "group", "log-size", "threads", "seed");

    private DemoCommand() {}

    static int run(Options opts, PrintStream out) {
        Curve curve = opts.curve("bls12-381");
        Group group = opts.group("g1");
        int logSize = opts.getInt("log-size", 16, 0, 24);
        int threads = opts.getInt("threads", 0, 0, 4096);
        long seed = opts.getInt("seed", 1, 0, Integer.MAX_VALUE);
        long n = 1L << logSize;
        Backend backend = Backend.cpu(threads);
        out.printf("cuzk msm-demo: %s %s MSM of %d pairs on %s%n", curve.cliName(), group, n, backend.name());
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofShared()) {
            Point g = Points.generator(curve, group);
            PointVector gs = PointVector.allocate(arena, curve, group, n);
            ScalarVector m = ScalarVector.allocate(arena, curve, n, ScalarForm.CANONICAL);
            ScalarVector k = ScalarVector.allocate(arena, curve, n, ScalarForm.CANONICAL);
            BigInteger sum = BigInteger.ZERO;
            for (long i = 0; i < n; i++) {
                gs.set(i, g);
                BigInteger mi = new BigInteger(64, rnd);
                BigInteger ki = new BigInteger(256, rnd);
                m.set(i, mi);
                k.set(i, ki);
                sum = sum.add(mi.multiply(ki));
            }
            long t0 = System.nanoTime();
            PointVector bases = PointVector.allocate(arena, curve, group, n);
            Points.multiply(gs, m, bases);
            long t1 = System.nanoTime();
            out.printf("  bases m_i*G generated in %.0f ms%n", (t1 - t0) / 1e6);
            Point result = backend.msm(bases, k);
            long t2 = System.nanoTime();
            double ms = (t2 - t1) / 1e6;
            out.printf("  msm: %.1f ms (%.0f points/s)%n", ms, n / (ms / 1e3));
            out.println("  result: " + result);
            Point expected = Points.multiply(g, sum.mod(curve.r()));
            boolean ok = expected.equals(result);
            out.println("  check against (sum k_i*m_i)*G: " + (ok ? "OK" : "MISMATCH, expected " + expected));
            return ok ? Main.OK : Main.FAILURE;
        }
    }
}
