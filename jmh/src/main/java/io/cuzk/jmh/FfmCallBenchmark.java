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
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What crossing into native code costs, through the public API: a trivial critical downcall, a
 * regular downcall that does almost nothing (setting the CPU code path to the one in use), and a
 * whole API call that does no work (an MSM of zero pairs: validation, config struct, downcall,
 * status check, result copy).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class FfmCallBenchmark {
    private Arena arena;
    private PointVector noPoints;
    private ScalarVector noScalars;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        noPoints = PointVector.allocate(arena, Curve.BN254, Group.G1, 0);
        noScalars = ScalarVector.allocate(arena, Curve.BN254, 0, ScalarForm.CANONICAL);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** cuzk_abi_version through a critical (no thread-state transition) downcall. */
    @Benchmark
    public int trivialCriticalCall() {
        return Cuzk.abiVersion();
    }

    /** cuzk_set_cpu_isa(AUTO) through a regular downcall, its status checked. */
    @Benchmark
    public void regularCall() {
        Cuzk.setCpuIsa(CpuIsa.AUTO);
    }

    /** The public API end to end for an MSM with nothing to do. */
    @Benchmark
    public Point emptyMsmThroughTheApi() {
        return Backend.cpu(1).msm(noPoints, noScalars);
    }
}
