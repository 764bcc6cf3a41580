package io.cuzk.engine;

import io.cuzk.groth16.Proof;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** A submitted job: its proofs when they are done, its cancellation, and each partition's state. */
public final class JobHandle {
    private final long id;
    private final Priority priority;
    final List<Partition> partitions;
    final CompletableFuture<List<Proof>> future = new CompletableFuture<>();
    /** Partitions not yet retired; the key lease ends when it reaches zero. */
    final AtomicInteger live = new AtomicInteger();
    private final Engine engine;

    JobHandle(long id, Priority priority, List<Partition> partitions, Engine engine) {
        this.id = id;
        this.priority = priority;
        this.partitions = partitions;
        this.engine = engine;
    }

    public long id() {
        return id;
    }

    public Priority priority() {
        return priority;
    }

    /**
     * The proofs, one per partition in submission order. Throws {@link TimeoutException} if they
     * are not done within the timeout, {@link CancellationException} for a cancelled job, and
     * {@link ExecutionException} with the first partition's failure as its cause.
     */
    public List<Proof> await(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The proofs as a future. */
    public CompletableFuture<List<Proof>> future() {
        return future;
    }

    /**
     * Cancels the job: partitions waiting for memory or for a device are dropped at once and their
     * memory returned; partitions already on a device finish their kernels, then are dropped.
     * Returns false if the job had already completed.
     */
    public boolean cancel() {
        return engine.cancel(this);
    }

    public boolean isDone() {
        return future.isDone();
    }

    /**
     * Each partition's time in each phase so far, in milliseconds: queued (waiting for memory),
     * synthesis, ready (waiting for a device worker), deviceQueue, device, finalize; a phase not
     * reached yet is absent.
     */
    public List<Map<String, Double>> partitionTimes() {
        List<Map<String, Double>> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            Map<String, Double> m = new LinkedHashMap<>();
            put(m, "queued", p.submitted, p.reservedAt);
            put(m, "synthesis", p.synthStart, p.synthEnd);
            put(m, "ready", p.synthEnd, p.deviceQueued);
            put(m, "deviceQueue", p.deviceQueued, p.deviceStart);
            put(m, "device", p.deviceStart, p.deviceEnd);
            put(m, "finalize", p.finalizeStart, p.finalizeEnd);
            out.add(m);
        }
        return out;
    }

    private static void put(Map<String, Double> m, String phase, long from, long to) {
        if (from != 0 && to != 0 && to >= from) {
            m.put(phase, (to - from) / 1e6);
        }
    }

    /** Each partition's state now. */
    public List<PartitionState> partitionStates() {
        List<PartitionState> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            out.add(p.state());
        }
        return out;
    }
}
