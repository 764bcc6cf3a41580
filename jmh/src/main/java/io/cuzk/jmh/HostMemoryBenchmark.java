package io.cuzk.jmh;

import io.cuzk.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A fresh buffer, allocated, written once (one long per 4 KiB page, as a copy or a transform
 * touches it first) and freed: {@code hostMemory} (libcuzk's, in huge pages from 1 MiB) against
 * the baseline {@code arena} (Arena.allocate: malloc, 4 KiB pages, zero-filled in Java). What it
 * measures is mostly page faults, whose cost depends on the machine: a virtual machine pays far
 * more per fault than bare metal.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 2)
public class HostMemoryBenchmark {
    @Param({"2", "16"})
    public int mebibytes;

    private static long touch(MemorySegment s) {
        long sum = 0;
        for (long i = 0; i < s.byteSize(); i += 4096) {
            s.set(ValueLayout.JAVA_LONG, i, i);
            sum += s.get(ValueLayout.JAVA_LONG, i);
        }
        return sum;
    }

    @Benchmark
    public long arena() {
        try (Arena a = Arena.ofConfined()) {
            return touch(a.allocate((long) mebibytes << 20, 64));
        }
    }

    @Benchmark
    public long hostMemory() {
        try (Arena a = Arena.ofConfined()) {
            return touch(HostMemory.allocate(a, (long) mebibytes << 20));
        }
    }
}
