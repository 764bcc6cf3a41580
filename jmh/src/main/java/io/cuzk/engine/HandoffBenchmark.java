package io.cuzk.engine;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * contended baseline, where finalizers hold the tracker's fair lock across a trim-like stall. The
 * time measured is the time the device would sit idle if the worker were the only one feeding it.
 * (In the package of the tracker, which is not public API.)
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

    private StatusTracker t;
    private ExecutorService finalizers;
    private final AtomicBoolean running = new AtomicBoolean();
    private Partition partition;

    @Setup(Level.Trial)
    public void setUp() {
        String[] names = {"w0", "w1"};
        t = tracker == TrackerMode.CONTENDED ? StatusTracker.contended(names, Duration.ofNanos(stallMicros * 1000L))
                : StatusTracker.lockFree(names);
        partition = null;
        running.set(true);
        finalizers = Executors.newFixedThreadPool(2);
        for (int i = 0; i < 2; i++) {
            finalizers.execute(() -> {
                while (running.get()) {
                    t.finalize(partition, () -> {
                        // assembling a proof: a few microseconds of work
                        long x = 0;
                        for (int k = 0; k < 2000; k++) {
                            x += k * 31L;
                        }
                        if (x == 42) {
                            throw new IllegalStateException();
                        }
                    });
                    if (tracker == TrackerMode.LOCKFREE) {
                        // the lock-free finalizer returns memory to the pool instead of trimming a heap
                        Thread.onSpinWait();
                    }
                }
            });
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        running.set(false);
        finalizers.shutdown();
        finalizers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Benchmark
    public void handoff() {
        t.afterFinish(0, partition);
        t.beforeStart(0, partition);
    }
}
