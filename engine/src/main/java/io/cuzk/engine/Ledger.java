package io.cuzk.engine;

import io.cuzk.groth16.Proof;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who holds what: each partition's state and the counts per state, its memory (budget and arenas)
 * and its job's key lease, and each job's outcome. Every stage moves partitions through here, so
 * that the rules live in one place:
 *
 * <ul>
 *   <li>a state moves by compare-and-set; whoever moves a partition out of a queue's state owns it
 *       until it moves it on, and a canceller that wins the race for a queued partition releases
 *       it itself, while one that loses leaves it to the owner, who sees the terminal state;
 *   <li>a partition holds a place in the {@link Lookahead} from its admission until a device takes
 *       it (or it ends before);
 *   <li>memory is released in two steps (a, b, c; then the rest), each at most once, and the
 *       budget is given back even when an arena cannot be closed;
 *   <li>a partition retires once: the job's key lease ends with its last partition;
 *   <li>a job completes once: with its proofs, or with the first failure, or cancelled; its other
 *       partitions are then dropped.
 * </ul>
 */
final class Ledger {
    private static final System.Logger LOG = System.getLogger("io.cuzk.engine");

    private final MemoryBudget budget;
    private final WorkQueue pending;
    private final WorkQueue ready;
    private final EngineMetrics metrics;
    private final Lookahead lookahead;
    private final Map<PartitionState, AtomicInteger> depth = new EnumMap<>(PartitionState.class);

    Ledger(MemoryBudget budget, WorkQueue pending, WorkQueue ready, EngineMetrics metrics, Lookahead lookahead) {
        this.budget = budget;
        this.lookahead = lookahead;
        this.pending = pending;
        this.ready = ready;
        this.metrics = metrics;
        for (PartitionState s : PartitionState.values()) {
            depth.put(s, new AtomicInteger());
        }
    }

    /** A new partition enters the pending queue. */
    void admit(Partition p) {
        depth.get(PartitionState.QUEUED).incrementAndGet();
        pending.add(p);
    }

    /** Moves p from one state to the next; false if someone else moved it (a canceller). */
    boolean move(Partition p, PartitionState from, PartitionState to) {
        if (p.transition(from, to)) {
            depth.get(from).decrementAndGet();
            if (!to.terminal()) {
                depth.get(to).incrementAndGet();
            }
            return true;
        }
        return false;
    }

    /** Moves p to a terminal state from wherever it is; returns the state it left, or null if already terminal. */
    private PartitionState end(Partition p, PartitionState to) {
        while (true) {
            PartitionState s = p.state();
            if (s.terminal()) {
                return null;
            }
            if (p.transition(s, to)) {
                depth.get(s).decrementAndGet();
                return s;
            }
        }
    }

    /**
     * Partitions in each non-terminal state now. The counters are read without a lock, one after
     * the other, from the last state of the pipeline to the first: a partition moving on while
     * they are read (always to a later state) may be missed, but is never counted twice, which
     * reading in pipeline order would do to one that moved from a state already read to one not
     * yet read (a status that showed more partitions ahead of the devices than the lookahead
     * admits, for an instant).
     */
    Map<PartitionState, Integer> depths() {
        Map<PartitionState, Integer> queues = new EnumMap<>(PartitionState.class);
        PartitionState[] states = PartitionState.values();
        for (int i = states.length - 1; i >= 0; i--) {
            if (!states[i].terminal()) {
                queues.put(states[i], depth.get(states[i]).get());
            }
        }
        return queues;
    }

    /** p no longer counts against the lookahead: a device took it, or it ended before. Once. */
    void leaveLookahead(Partition p) {
        if (p.leaveLookahead()) {
            lookahead.leave();
        }
    }

    /** Gives back p's a, b and c: the device holds what it needs of them. Once; never throws. */
    void releaseAbc(Partition p) {
        if (p.markAbcReleased()) {
            try {
                close(p, p.abcArena);
            } finally {
                if (p.reserved) {
                    budget.release(p.abcBytes);
                }
            }
        }
    }

    /**
     * Returns all of p's memory and retires it; only p's current owner calls it, when no kernel
     * uses its memory any more. Never throws.
     */
    void releaseAll(Partition p) {
        leaveLookahead(p);
        releaseAbc(p);
        if (p.markRestReleased()) {
            try {
                close(p, p.arena);
            } finally {
                if (p.reserved) {
                    budget.release(p.restBytes);
                }
            }
        }
        retire(p);
    }

    /**
     * An arena that cannot close (a native call still holds one of its segments, or the pool could
     * not free a block) keeps its blocks out of the pool: reported, counted, and not allowed to
     * keep the budget or stop the caller.
     */
    private void close(Partition p, PartitionArena arena) {
        if (arena == null) {
            return;
        }
        try {
            arena.close();
        } catch (RuntimeException e) {
            metrics.arenasNotReturned.increment();
            LOG.log(System.Logger.Level.WARNING, "cuzk engine: the memory of " + p + " could not be returned to the pool: " + e);
        }
    }

    /** p will not touch its key again; the job's key lease ends with its last partition. */
    void retire(Partition p) {
        if (p.markRetired() && p.job.live.decrementAndGet() == 0) {
            try {
                p.job.releaseKey.run();
            } finally {
                p.job.released.complete(null);
            }
        }
    }

    /** p failed in the hands of the calling thread: release it, fail its job, drop the job's other partitions. */
    void fail(Partition p, Throwable t) {
        PartitionState was = end(p, PartitionState.FAILED);
        releaseAll(p);
        if (was == null) {
            return; // already cancelled or failed: nothing more to report
        }
        metrics.partitionsFailed.increment();
        if (p.job.future.completeExceptionally(new PartitionFailedException(p.job.id(), p.index, t))) {
            metrics.jobsFailed.increment();
            dropPartitions(p.job);
        }
    }

    /** Ends a job that has not completed: its waiters get the reason, its partitions are dropped. */
    boolean cancel(JobHandle h, CancellationException reason) {
        if (!h.future.completeExceptionally(reason)) {
            return false;
        }
        metrics.jobsCancelled.increment();
        dropPartitions(h);
        return true;
    }

    /**
     * Drops a job's unfinished partitions. Those waiting in a queue are released here; those in a
     * stage's hands are released by that stage when it sees the state.
     */
    private void dropPartitions(JobHandle h) {
        for (Partition q : h.partitions) {
            PartitionState was = end(q, PartitionState.CANCELLED);
            if (was == null) {
                continue;
            }
            metrics.partitionsCancelled.increment();
            if (was == PartitionState.QUEUED) {
                if (pending.remove(q)) {
                    retire(q); // else the dispatcher took it: it sees the state and releases it
                }
            } else if (was == PartitionState.READY) {
                // a device worker that polled it meanwhile fails to move it to PROVING and leaves
                // it alone: from READY the canceller always owns it
                ready.remove(q);
                releaseAll(q);
            }
        }
    }

    /** Completes p's job if every partition is done. */
    void completeIfDone(JobHandle h) {
        List<Proof> proofs = new ArrayList<>(h.partitions.size());
        for (Partition q : h.partitions) {
            if (q.state() != PartitionState.DONE) {
                return;
            }
            proofs.add(q.proof);
        }
        if (h.future.complete(List.copyOf(proofs))) {
            metrics.jobsDone.increment();
        }
    }
}
