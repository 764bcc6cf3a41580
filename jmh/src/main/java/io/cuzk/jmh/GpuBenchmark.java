package io.cuzk.jmh;

import io.cuzk.CudaBackend;
import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Stream;
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
 * G1 MSM on the GPU with device-resident inputs: start plus finish (kernels, read-back, host
 * combination). {@link Main} leaves this class out, saying why, where no CUDA device is usable.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class GpuBenchmark {
    @Param({"BLS12_381"})
    public Curve curve;

    @Param({"20", "22", "24"})
    public int logSize;

    private Arena arena;
    private CudaBackend gpu;
    private Stream stream;
    private DeviceBuffer bases;
    private DeviceBuffer scalars;

    @Setup(Level.Trial)
    public void setUp() {
        gpu = CudaBackend.open(0);
        arena = Arena.ofShared();
        int n = 1 << logSize;
        PointVector p = Inputs.points(arena, curve, Group.G1, n, 1);
        ScalarVector s = Inputs.scalars(arena, curve, n, ScalarForm.CANONICAL, 2);
        stream = Stream.create(gpu.device());
        bases = DeviceBuffer.allocate(stream, p.segment().byteSize());
        scalars = DeviceBuffer.allocate(stream, s.segment().byteSize());
        bases.copyFrom(p.segment(), 0, stream);
        scalars.copyFrom(s.segment(), 0, stream);
        stream.synchronize();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        bases.close();
        scalars.close();
        stream.close();
        arena.close();
    }

    @Benchmark
    public Point msmG1() {
        return gpu.startMsm(stream, curve, bases, scalars, 1L << logSize, ScalarForm.CANONICAL).finish();
    }
}
