package io.cuzk.jmh;

import io.cuzk.engine.ContendedBaseline;
import io.cuzk.engine.TrackerMode;
import java.time.Duration;
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
 * A device worker's hand-off between two partitions (report the finished one, report the start of
 * the next), while two finalizers keep finishing partitions: in the lock-free tracker, and in the
 * contended baseline, where finalizers hold the tracker's fair lock across a trim-like stall
 * ({@link ContendedBaseline#handoff}). The time measured is the time the device would sit idle if
 * the worker were the only one feeding it.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class HandoffBenchmark {
    @Param({"LOCKFREE", "CONTENDED"})
    public TrackerMode tracker;

    /** The finalizers' stall, standing in for malloc_trim (the seed saw hundreds of ms; scaled down here). */
    @Param({"1000"})
    public int stallMicros;

    private ContendedBaseline.Handoff handoff;

    @Setup(Level.Trial)
    public void setUp() {
        handoff = ContendedBaseline.handoff(tracker, Duration.ofNanos(stallMicros * 1000L));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        handoff.close();
    }

    @Benchmark
    public void handoff() {
        handoff.run();
    }
}
