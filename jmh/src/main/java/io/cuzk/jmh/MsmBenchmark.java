package io.cuzk.jmh;

import io.cuzk.Backend;
import io.cuzk.CpuIsa;
import io.cuzk.Curve;
import io.cuzk.Cuzk;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU MSM time per call, by curve, group, size, thread count and CPU code path ({@code -p
 * isa=X86_ADX,X86_IFMA} compares two paths in one run; a path this CPU lacks fails the trial),
 * and by the share of scalars equal to one ({@code -p onesPercent=0,50,90}: a witness of mostly
 * booleans; the others stay uniform).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class MsmBenchmark {
    @Param({"BLS12_381"})
    public Curve curve;

    @Param({"G1", "G2"})
    public Group group;

    @Param({"12", "16", "18"})
    public int logSize;

    @Param({"1", "2"})
    public int threads;

    @Param({"AUTO"})
    public CpuIsa isa;

    @Param({"0"})
    public int onesPercent;

    private Arena arena;
    private PointVector bases;
    private ScalarVector scalars;
    private Backend backend;

    @Setup(Level.Trial)
    public void setUp() {
        Cuzk.setCpuIsa(isa);
        arena = Arena.ofShared();
        int n = 1 << logSize;
        bases = Inputs.points(arena, curve, group, n, 1);
        scalars = Inputs.scalars(arena, curve, n, ScalarForm.CANONICAL, 2);
        Random rnd = new Random(3);
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(100) < onesPercent) {
                scalars.set(i, BigInteger.ONE);
            }
        }
        backend = Backend.cpu(threads);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
        Cuzk.setCpuIsa(CpuIsa.AUTO);
    }

    @Benchmark
    public Point msm() {
        return backend.msm(bases, scalars);
    }
}
