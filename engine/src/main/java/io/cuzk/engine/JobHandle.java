package io.cuzk.engine;

import io.cuzk.groth16.Proof;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** A submitted job: its proofs when they are done, its cancellation, and each partition's state. */
public final class JobHandle {
    private final long id;
    private final Priority priority;
    final List<Partition> partitions;
    /** Completed by the engine only: callers get {@link #future()}, a view they cannot complete. */
    final CompletableFuture<List<Proof>> future = new CompletableFuture<>();
    /** Completed when the last partition is retired: the engine holds none of the job's inputs. */
    final CompletableFuture<Void> released = new CompletableFuture<>();
    /** Partitions not yet retired; the key lease ends when it reaches zero. */
    final AtomicInteger live = new AtomicInteger();
    /** Ends the job's hold on its key (a lease of the engine's key store), or does nothing. */
    final Runnable releaseKey;
    private final Ledger ledger;

    JobHandle(long id, Priority priority, List<Partition> partitions, Runnable releaseKey, Ledger ledger) {
        this.id = id;
        this.priority = priority;
        this.partitions = partitions;
        this.releaseKey = releaseKey;
        this.ledger = ledger;
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
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (CancellationException e) { // the JDK's says "get"; the job's says why it was cancelled
            throw e.getCause() instanceof CancellationException why ? why : e;
        }
    }

    /**
     * The proofs as a completion stage: a view of the job's outcome that its holder cannot complete
     * ({@code toCompletableFuture()} gives an independent copy).
     */
    public CompletionStage<List<Proof>> future() {
        return future.minimalCompletionStage();
    }

    /**
     * Cancels the job: partitions waiting for memory or for a device are dropped at once and their
     * memory returned; partitions already on a device finish their kernels, then are dropped.
     * Returns false if the job had already completed.
     */
    public boolean cancel() {
        return ledger.cancel(this, new CancellationException("job " + id + " was cancelled"));
    }

    /**
     * Completes once the engine holds nothing of the job any more: every partition has ended and
     * given back its memory, its key and its witnesses. For a job of objects ({@link Job#of}) this
     * is when the caller may close them. It can come after {@link #future()}: a cancelled or failed
     * job's partitions that were on a device finish their kernels first.
     */
    public CompletionStage<Void> released() {
        return released.minimalCompletionStage();
    }

    public boolean isDone() {
        return future.isDone();
    }

    /** Each partition's time in each phase it has been through so far, in milliseconds. */
    public List<Map<Phase, Double>> partitionTimes() {
        List<Map<Phase, Double>> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            Map<Phase, Double> m = new EnumMap<>(Phase.class);
            for (Phase phase : Phase.values()) {
                long nanos = phase.nanos(p);
                if (nanos >= 0) {
                    m.put(phase, nanos / 1e6);
                }
            }
            out.add(m);
        }
        return out;
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
