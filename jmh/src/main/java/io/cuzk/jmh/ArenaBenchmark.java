package io.cuzk.jmh;

import io.cuzk.engine.PartitionArena;
import io.cuzk.engine.SlabAllocator;
import io.cuzk.engine.SlabPool;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * One partition's memory life: allocate its buffers (three domain-sized a, b, c, the witness
 * copy, the device's h), write them, free them. From the engine's slab pool against fresh
 * malloc/free through a new arena per partition.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class ArenaBenchmark {
    /** log2 of the domain: buffers of 2^k x 32 bytes. */
    @Param({"12", "16", "20"})
    public int logDomain;

    private SlabPool pool;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() {
        pool = new SlabPool(SlabAllocator.offHeap(), 1L << 30);
        bytes = 32L << logDomain;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
    }

    private long use(Arena a) {
        long sum = 0;
        for (int i = 0; i < 5; i++) {
            MemorySegment s = a.allocate(bytes, 8);
            for (long off = 0; off < bytes; off += 4096) {
                s.set(ValueLayout.JAVA_LONG, off, off);
            }
            sum += s.get(ValueLayout.JAVA_LONG, bytes - 8);
        }
        return sum;
    }

    @Benchmark
    public long pooledArena() {
        try (PartitionArena a = pool.newArena()) {
            return use(a);
        }
    }

    @Benchmark
    public long mallocFreeArena() {
        try (Arena a = Arena.ofShared()) {
            return use(a);
        }
    }
}
