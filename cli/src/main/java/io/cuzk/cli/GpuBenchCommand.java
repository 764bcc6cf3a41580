package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.BaseCopies;
import io.cuzk.CudaBackend;
import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.NttKind;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Event;
import io.cuzk.cuda.Stream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk gpu-bench}: G1 and G2 MSMs and NTTs on a GPU, timed with CUDA events around the
 * kernels (inputs already on the device), each checked against the CPU backend at the smallest
 * size. Prints one line per measurement: kind, curve, log size, milliseconds (median of the runs);
 * a G2 line also gives the CPU backend's wall time for the same MSM on this host, the two sides of
 * the {@link io.cuzk.G2Placement} choice; a shifted line times the MSM over a table of shifted
 * copies of the bases ({@link BaseCopies}) and says how long the table took to build.
 */
final class GpuBenchCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("gpu-bench", "G1 and G2 MSMs and NTTs on a GPU timed with CUDA events (inputs on the device); "
                + "the first size of each is checked against the CPU backend.");
        spec.addOption(Specs.converted("--curve", "bn254|bls12-381", Curve.class, new Converters.CurveConverter(), "bls12-381", "the curve"));
        spec.addOption(Specs.list("--msm", "K,K,...", Integer.class, "20,22,24", "MSM sizes as powers of two"));
        spec.addOption(Specs.list("--ntt", "K,K,...", Integer.class, "20,24", "NTT sizes as powers of two"));
        spec.addOption(OptionSpec.builder("--g2").paramLabel("K,K,...").type(List.class).auxiliaryTypes(Integer.class).splitRegex(",")
                .description("G2 MSM sizes as powers of two, on witness-shaped scalars, each also timed on the CPU backend (wall time, "
                        + "all host threads); none by default").build());
        spec.addOption(OptionSpec.builder("--shifted").paramLabel("C,C,...").type(List.class).auxiliaryTypes(Integer.class).splitRegex(",")
                .description("also time each G1 MSM over a table of shifted copies of its bases made for windows of C bits (one block "
                        + "per window where a quarter of the device's memory holds them, fewer where not), with the table's build "
                        + "time; none by default").build());
        spec.addOption(Specs.option("--runs", "R", int.class, "3", "runs per size; the median is printed"));
        spec.addOption(Specs.flag("--witness", "also time each MSM on Groth16-shaped scalars (45% 0, 35% 1, 10% small): one very "
                + "long bucket, which the kernels split into runs"));
        spec.addOption(Specs.option("--device", "N", int.class, "0", "the CUDA device's ordinal"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        Curve curve = Specs.value(parsed, "--curve");
        int runs = Specs.intValue(parsed, "--runs", 1, 100);
        int device = Specs.intValue(parsed, "--device", 0, 1024);
        List<Integer> msm = Specs.value(parsed, "--msm");
        List<Integer> ntt = Specs.value(parsed, "--ntt");
        List<Integer> g2 = parsed.hasMatchedOption("--g2") ? Specs.value(parsed, "--g2") : List.of();
        boolean witness = Specs.value(parsed, "--witness");
        List<Integer> shifted = parsed.hasMatchedOption("--shifted") ? Specs.value(parsed, "--shifted") : List.of();
        for (int c : shifted) {
            Specs.inRange(parsed, "--shifted", c, 2, 20);
        }
        for (int k : msm) {
            Specs.inRange(parsed, "--msm", k, 0, 28);
        }
        for (int k : ntt) {
            Specs.inRange(parsed, "--ntt", k, 0, curve.twoAdicity());
        }
        for (int k : g2) {
            Specs.inRange(parsed, "--g2", k, 0, 26);
        }
        PrintStream out = root.out;
        CudaBackend gpu = CudaBackend.open(device);
        out.println("# " + gpu.name() + ", " + curve.cliName() + ", CUDA event times, median of " + runs);
        for (int i = 0; i < msm.size(); i++) {
            int k = msm.get(i);
            out.printf(Locale.ROOT, "msm-g1 %s 2^%d %.3f ms%n", curve.cliName(), k, msm(gpu, curve, Group.G1, k, runs, i == 0, false)[0]);
            if (witness) {
                out.printf(Locale.ROOT, "msm-g1-witness %s 2^%d %.3f ms%n", curve.cliName(), k,
                        msm(gpu, curve, Group.G1, k, runs, i == 0, true)[0]);
            }
            for (int bits : shifted) {
                long room = gpu.device().properties().totalGlobalMemory() / 4;
                BaseCopies plan = BaseCopies.plan(curve, Group.G1, 1L << k, bits, room);
                double[] t = shiftedMsm(gpu, curve, k, plan, runs, i == 0, witness);
                out.printf(Locale.ROOT, "msm-g1-shifted%s %s 2^%d c=%d K=%d %.3f ms (table %d MiB, built in %.3f ms)%n",
                        witness ? "-witness" : "", curve.cliName(), k, plan.windowBits(), plan.copies(), t[0],
                        plan.tableBytes(curve, Group.G1, 1L << k) >> 20, t[1]);
            }
        }
        for (int i = 0; i < g2.size(); i++) {
            int k = g2.get(i);
            double[] t = msm(gpu, curve, Group.G2, k, runs, i == 0, true);
            out.printf(Locale.ROOT, "msm-g2-witness %s 2^%d %.3f ms (cpu backend %.3f ms, %d threads)%n", curve.cliName(), k, t[0], t[1],
                    Backend.cpu().hostThreads());
        }
        for (int i = 0; i < ntt.size(); i++) {
            int k = ntt.get(i);
            out.printf(Locale.ROOT, "ntt %s 2^%d %.3f ms%n", curve.cliName(), k, ntt(gpu, curve, k, runs, i == 0));
        }
        return Main.OK;
    }

    static void randomScalars(MemorySegment s, long n, SplittableRandom rnd) {
        for (long i = 0; i < n * 4; i++) {
            long v = rnd.nextLong();
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, 8 * i, (i & 3) == 3 ? v >>> 3 : v); // below 2^253, so below r
        }
    }

    /** Scalars shaped like a Groth16 witness: 45% 0, 35% 1, 10% below 2^16, 10% below 2^253. */
    static void witnessScalars(MemorySegment s, long n, SplittableRandom rnd) {
        for (long i = 0; i < n; i++) {
            int kind = rnd.nextInt(20);
            for (int j = 0; j < 4; j++) {
                long v = kind < 9 ? 0 : kind < 16 ? (j == 0 ? 1 : 0) : kind < 18 ? (j == 0 ? rnd.nextInt(1 << 16) : 0)
                        : (j == 3 ? rnd.nextLong() >>> 3 : rnd.nextLong());
                s.set(ValueLayout.JAVA_LONG_UNALIGNED, 32 * i + 8 * j, v);
            }
        }
    }

    /**
     * 2^k bases for a benchmark: 2^16 distinct random points at most, repeated (distinct points cost
     * the host a scalar multiplication each; the device's time does not depend on repeats).
     */
    static PointVector benchBases(Arena a, Curve c, Group group, int k, SplittableRandom rnd) {
        long n = 1L << k;
        int distinct = (int) Math.min(n, 1 << 16);
        PointVector gs = PointVector.allocate(a, c, group, distinct);
        ScalarVector m = ScalarVector.allocate(a, c, distinct, ScalarForm.CANONICAL);
        Point g = Points.generator(c, group);
        for (int i = 0; i < distinct; i++) {
            gs.set(i, g);
            m.set(i, BigInteger.valueOf(rnd.nextLong() >>> 1).add(BigInteger.ONE));
        }
        PointVector base = PointVector.allocate(a, c, group, distinct);
        Points.multiply(gs, m, base);
        PointVector bases = PointVector.allocate(a, c, group, n);
        for (long off = 0; off < bases.segment().byteSize(); off += base.segment().byteSize()) {
            MemorySegment.copy(base.segment(), 0, bases.segment(), off, Math.min(base.segment().byteSize(), bases.segment().byteSize() - off));
        }
        return bases;
    }

    static ScalarVector benchScalars(Arena a, Curve c, int k, boolean witness, SplittableRandom rnd) {
        long n = 1L << k;
        ScalarVector scalars = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
        if (witness) {
            witnessScalars(scalars.segment(), n, rnd);
        } else {
            randomScalars(scalars.segment(), n, rnd);
        }
        return scalars;
    }

    /**
     * The median CUDA-event time of an MSM of 2^k points of the group, and for G2 the median wall
     * time of the CPU backend's MSM of the same inputs (NaN for G1).
     */
    static double[] msm(CudaBackend gpu, Curve c, Group group, int k, int runs, boolean check, boolean witness) {
        long n = 1L << k;
        try (Arena a = Arena.ofShared(); Stream s = Stream.create(gpu.device())) {
            SplittableRandom rnd = new SplittableRandom(k);
            PointVector bases = benchBases(a, c, group, k, rnd);
            ScalarVector scalars = benchScalars(a, c, k, witness, rnd);
            try (DeviceBuffer db = DeviceBuffer.allocate(s, bases.segment().byteSize());
                    DeviceBuffer ds = DeviceBuffer.allocate(s, scalars.segment().byteSize());
                    Event e0 = Event.create(gpu.device(), true); Event e1 = Event.create(gpu.device(), true)) {
                db.copyFrom(bases.segment(), 0, s);
                ds.copyFrom(scalars.segment(), 0, s);
                s.synchronize();
                double[] ms = new double[runs];
                Point result = null;
                for (int r = 0; r < runs; r++) {
                    e0.record(s);
                    CudaBackend.PendingMsm p = gpu.startMsm(s, c, group, db, ds, n, ScalarForm.CANONICAL);
                    e1.record(s);
                    result = p.finish();
                    e1.synchronize();
                    ms[r] = Event.elapsedMillis(e0, e1);
                }
                if (check) {
                    Point cpu = Backend.cpu().msm(bases, scalars);
                    if (!cpu.equals(result)) {
                        throw new IllegalStateException("GPU " + group + " MSM 2^" + k + " differs from the CPU backend");
                    }
                }
                double cpuMs = Double.NaN;
                if (group == Group.G2) {
                    double[] wall = new double[runs];
                    for (int r = 0; r < runs; r++) {
                        long t0 = System.nanoTime();
                        Backend.cpu().msm(bases, scalars);
                        wall[r] = (System.nanoTime() - t0) / 1e6;
                    }
                    Arrays.sort(wall);
                    cpuMs = wall[runs / 2];
                }
                Arrays.sort(ms);
                return new double[] {ms[runs / 2], cpuMs};
            }
        }
    }

    /**
     * The median CUDA-event time of a G1 MSM of 2^k points over a table of shifted copies of them
     * (the plan's), and the CUDA-event time of building the table on the device.
     */
    static double[] shiftedMsm(CudaBackend gpu, Curve c, int k, BaseCopies plan, int runs, boolean check, boolean witness) {
        long n = 1L << k;
        try (Arena a = Arena.ofShared(); Stream s = Stream.create(gpu.device())) {
            SplittableRandom rnd = new SplittableRandom(k);
            PointVector bases = benchBases(a, c, Group.G1, k, rnd);
            ScalarVector scalars = benchScalars(a, c, k, witness, rnd);
            try (DeviceBuffer table = DeviceBuffer.allocate(s, plan.tableBytes(c, Group.G1, n));
                    DeviceBuffer ds = DeviceBuffer.allocate(s, scalars.segment().byteSize());
                    Event e0 = Event.create(gpu.device(), true); Event e1 = Event.create(gpu.device(), true)) {
                table.copyFrom(bases.segment(), 0, s);
                ds.copyFrom(scalars.segment(), 0, s);
                e0.record(s);
                gpu.precompute(s, c, Group.G1, table, n, plan);
                e1.record(s);
                e1.synchronize();
                double built = Event.elapsedMillis(e0, e1);
                double[] ms = new double[runs];
                Point result = null;
                for (int r = 0; r < runs; r++) {
                    e0.record(s);
                    CudaBackend.PendingMsm p = gpu.startMsmAt(s, c, Group.G1, table, plan, ds, 0, n, ScalarForm.CANONICAL);
                    e1.record(s);
                    result = p.finish();
                    e1.synchronize();
                    ms[r] = Event.elapsedMillis(e0, e1);
                }
                if (check && !Backend.cpu().msm(bases, scalars).equals(result)) {
                    throw new IllegalStateException("GPU MSM 2^" + k + " over " + plan + " differs from the CPU backend");
                }
                Arrays.sort(ms);
                return new double[] {ms[runs / 2], built};
            }
        }
    }

    static double ntt(CudaBackend gpu, Curve c, int k, int runs, boolean check) {
        long n = 1L << k;
        try (Arena a = Arena.ofShared(); Stream s = Stream.create(gpu.device())) {
            ScalarVector data = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
            randomScalars(data.segment(), n, new SplittableRandom(k));
            try (DeviceBuffer d = DeviceBuffer.allocate(s, data.segment().byteSize());
                    Event e0 = Event.create(gpu.device(), true); Event e1 = Event.create(gpu.device(), true)) {
                d.copyFrom(data.segment(), 0, s);
                double[] ms = new double[runs];
                for (int r = 0; r < runs; r++) {
                    if (r == 1 && check) {
                        // after one forward run the device holds NTT(data): compare with the CPU
                        ScalarVector back = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                        d.copyTo(back.segment(), 0, s);
                        s.synchronize();
                        Backend.cpu().ntt(data, NttKind.FORWARD);
                        if (!Arrays.equals(back.segment().toArray(ValueLayout.JAVA_BYTE), data.segment().toArray(ValueLayout.JAVA_BYTE))) {
                            throw new IllegalStateException("GPU NTT 2^" + k + " differs from the CPU backend");
                        }
                    }
                    e0.record(s);
                    gpu.startNtt(s, c, d, k, NttKind.FORWARD);
                    e1.record(s);
                    e1.synchronize();
                    ms[r] = Event.elapsedMillis(e0, e1);
                }
                Arrays.sort(ms);
                return ms[runs / 2];
            }
        }
    }
}
