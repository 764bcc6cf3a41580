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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cuzk msm-demo}: an MSM over generated bases m_i·G with random scalars k_i,
 * checked against the single multiplication (sum k_i·m_i mod r)·G.
 */
@Command(name = "msm-demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "An MSM on generated points m_i*G with random scalars k_i, checked against (sum k_i*m_i)*G.")
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Spec
    CommandSpec spec;

    @Option(names = "--curve", paramLabel = "bn254|bls12-381", defaultValue = "bls12-381", converter = Converters.CurveConverter.class,
            description = "the curve (default: ${DEFAULT-VALUE})")
    Curve curve;

    @Option(names = "--group", paramLabel = "g1|g2", defaultValue = "g1", converter = Converters.GroupConverter.class,
            description = "the group (default: ${DEFAULT-VALUE})")
    Group group;

    @Option(names = "--log-size", paramLabel = "K", defaultValue = "16", description = "2^K points, K in 0..24 (default: ${DEFAULT-VALUE})")
    int logSize;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0", description = "CPU threads, 0 = all (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "the random generator's seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call() {
        Ranges.check(spec, "--log-size", logSize, 0, 24);
        Ranges.check(spec, "--threads", threads, 0, 4096);
        PrintStream out = root.out;
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
