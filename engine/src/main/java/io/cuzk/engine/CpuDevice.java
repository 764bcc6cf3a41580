package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.ScalarVector;
import io.cuzk.groth16.Groth16Prover;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The CPU backend as a device: its stream is a single-threaded queue, each of whose tasks runs one
 * partition's kernels on the native thread pool (all the backend's threads). Partitions queued by
 * two workers run back to back.
 */
final class CpuDevice implements ProvingDevice {
    private final Backend backend;
    private final DeviceTimeline timeline;
    private final ExecutorService stream;
    private final AtomicInteger queued = new AtomicInteger();
    private final BooleanSupplier readyWork;

    CpuDevice(String name, Backend backend, BooleanSupplier readyWork) {
        this.backend = backend;
        this.timeline = new DeviceTimeline(name);
        this.readyWork = readyWork;
        this.stream = Executors.newSingleThreadExecutor(Engine.daemon(name + "-stream"));
    }

    @Override
    public String name() {
        return timeline.name;
    }

    @Override
    public DeviceTimeline timeline() {
        return timeline;
    }

    @Override
    public int queued() {
        return queued.get();
    }

    @Override
    public CompletableFuture<Groth16Prover.Msms> start(Partition p, Runnable abcTaken) {
        queued.incrementAndGet();
        p.deviceQueued = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> run(p, abcTaken), stream);
    }

    private Groth16Prover.Msms run(Partition p, Runnable abcTaken) {
        queued.decrementAndGet();
        long t0 = System.nanoTime();
        p.deviceStart = t0;
        timeline.begin(t0);
        try {
            ScalarVector inA = Groth16Prover.computeH(p.key, p.a, p.b, p.c, backend);
            // the device's own copy of h: what a GPU would upload before a, b and c can go
            MemorySegment hMem = p.arena.allocate(inA.segment().byteSize(), 8);
            MemorySegment.copy(inA.segment(), 0, hMem, 0, hMem.byteSize());
            ScalarVector h = ScalarVector.wrap(p.key.curve(), inA.form(), hMem);
            abcTaken.run();
            return Groth16Prover.msms(p.key, p.witness, h, backend);
        } finally {
            long t1 = System.nanoTime();
            p.deviceEnd = t1;
            timeline.end(t1, queued.get() > 0 || readyWork.getAsBoolean());
        }
    }

    @Override
    public void close() {
        stream.shutdownNow();
    }
}
