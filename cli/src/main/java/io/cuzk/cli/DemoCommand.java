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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk msm-demo}: an MSM over generated bases m_i·G with random scalars k_i,
 * checked against the single multiplication (sum k_i·m_i mod r)·G.
 */
final class DemoCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("msm-demo", "An MSM on generated points m_i*G with random scalars k_i, checked against "
                + "(sum k_i*m_i)*G.");
        spec.addOption(Specs.converted("--curve", "bn254|bls12-381", Curve.class, new Converters.CurveConverter(), "bls12-381", "the curve"));
        spec.addOption(Specs.converted("--group", "g1|g2", Group.class, new Converters.GroupConverter(), "g1", "the group"));
        spec.addOption(Specs.option("--log-size", "K", int.class, "16", "2^K points, K in 0..24"));
        spec.addOption(Specs.option("--threads", "N", int.class, "0", "CPU threads, 0 = all"));
        spec.addOption(Specs.option("--seed", "S", long.class, "1", "the random generator's seed"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        Curve curve = Specs.value(parsed, "--curve");
        Group group = Specs.value(parsed, "--group");
        int logSize = Specs.intValue(parsed, "--log-size", 0, 24);
        int threads = Specs.intValue(parsed, "--threads", 0, 4096);
        long seed = Specs.value(parsed, "--seed");
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
