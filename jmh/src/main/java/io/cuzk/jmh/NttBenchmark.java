package io.cuzk.jmh;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.NttKind;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU NTT time per transform over Fr. The data is transformed in place, forward then inverse
 * alternately, so it stays bounded and every call does the same work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class NttBenchmark {
    @Param({"BLS12_381"})
    public Curve curve;

    @Param({"16", "20"})
    public int logSize;

    @Param({"1", "2"})
    public int threads;

    private Arena arena;
    private ScalarVector data;
    private Backend backend;
    private boolean inverse;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        data = Inputs.scalars(arena, curve, 1 << logSize, ScalarForm.MONTGOMERY, 3);
        backend = Backend.cpu(threads);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public void ntt() {
        backend.ntt(data, inverse ? NttKind.INVERSE : NttKind.FORWARD);
        inverse = !inverse;
    }
}
