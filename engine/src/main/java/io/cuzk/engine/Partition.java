package io.cuzk.engine;

import io.cuzk.ScalarVector;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One partition in flight. Its state moves by compare-and-set, so a canceller and a worker racing
 * for the same partition agree on who handles it (see {@link Ledger}). Each phase's timestamps are
 * written by the one thread running that phase.
 */
final class Partition implements Comparable<Partition> {
    final JobHandle job;
    final Job spec;
    final int index;
    final long seq;
    final int priority;
    final ProvingKey key;
    final long abcBytes;
    final long restBytes;
    private final AtomicReference<PartitionState> state = new AtomicReference<>(PartitionState.QUEUED);
    private final AtomicBoolean abcReleased = new AtomicBoolean();
    private final AtomicBoolean restReleased = new AtomicBoolean();
    private final AtomicBoolean retired = new AtomicBoolean();
    private final AtomicBoolean inLookahead = new AtomicBoolean();
    volatile boolean reserved;

    // memory of the partition: a, b, c (released once the device has taken them), and the rest
    volatile PartitionArena abcArena;
    volatile PartitionArena arena;
    ScalarVector a, b, c;
    ScalarVector witness;
    List<BigInteger> publicSignals;
    volatile Proof proof;

    // phase timestamps (System.nanoTime()), each written by the thread of its phase; see Phase
    final long submitted;
    volatile long reservedAt, synthStart, synthEnd, taken, deviceQueued, deviceStart, hComputed, deviceEnd, handedOff, finalizeStart,
            finalizeEnd;
    /** The threads that synthesized, proved and finalized it, for the trace. */
    volatile String synthesisWorker, deviceWorker, finalizer;

    Partition(JobHandle job, Job spec, int index, long seq, ProvingKey key, long abcBytes, long restBytes) {
        this.job = job;
        this.spec = spec;
        this.index = index;
        this.seq = seq;
        this.priority = spec.priority().ordinal();
        this.key = key;
        this.abcBytes = abcBytes;
        this.restBytes = restBytes;
        this.submitted = System.nanoTime();
    }

    PartitionState state() {
        return state.get();
    }

    boolean transition(PartitionState from, PartitionState to) {
        return state.compareAndSet(from, to);
    }

    long reservation() {
        return abcBytes + restBytes;
    }

    boolean markAbcReleased() {
        return abcReleased.compareAndSet(false, true);
    }

    boolean markRestReleased() {
        return restReleased.compareAndSet(false, true);
    }

    /** Marks p as holding a place in the lookahead (the dispatcher admitted it). */
    void enterLookahead() {
        inLookahead.set(true);
    }

    /** True the first time only after {@link #enterLookahead}: p gives its place back. */
    boolean leaveLookahead() {
        return inLookahead.compareAndSet(true, false);
    }

    /** True the first time only: the partition is done with its key and memory for good. */
    boolean markRetired() {
        return retired.compareAndSet(false, true);
    }

    /** Higher priority first, then earlier submission. */
    @Override
    public int compareTo(Partition o) {
        if (priority != o.priority) {
            return Integer.compare(o.priority, priority);
        }
        return Long.compare(seq, o.seq);
    }

    @Override
    public String toString() {
        return "job " + job.id() + " partition " + index;
    }
}
