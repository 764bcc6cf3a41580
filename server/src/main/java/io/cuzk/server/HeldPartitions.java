package io.cuzk.server;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The partitions a daemon holds (accepted, not yet ended) and their integral over time
 * (partition-seconds), exact: every change of the count closes the area under the old count up to
 * its moment, in one compare-and-set of an immutable state, so no lock is taken and a reader never
 * sees the count and the area from different moments. Sampling the count instead (every 0.1 s,
 * as before) missed partitions that came and went between two samples, and a daemon whose
 * partitions are all short reported holding none.
 */
final class HeldPartitions {
    /** The count, the area up to {@code at}, in partition-nanoseconds, and {@code at}. */
    private record State(long count, double areaNanos, long at) {}

    private final LongSupplier clock;
    private final AtomicReference<State> state;

    HeldPartitions() {
        this(System::nanoTime);
    }

    /** With the given clock (nanoseconds, as {@link System#nanoTime}). */
    HeldPartitions(LongSupplier clock) {
        this.clock = clock;
        this.state = new AtomicReference<>(new State(0, 0, clock.getAsLong()));
    }

    /** Adds k (negative: partitions ended) and returns the new count. */
    long add(long k) {
        return advance(k).count;
    }

    long count() {
        return state.get().count;
    }

    /**
     * The integral of the count from this object's creation until now, in partition-seconds. It
     * advances the state to now too, so that a change whose thread read the clock earlier but
     * lands later is counted from now (the clamp in {@link #advance}): the integral never goes back.
     */
    double seconds() {
        return advance(0).areaNanos / 1e9;
    }

    private State advance(long k) {
        while (true) {
            State s = state.get();
            long now = Math.max(s.at, clock.getAsLong()); // threads may read the clock out of order
            State next = new State(s.count + k, s.areaNanos + (double) s.count * (now - s.at), now);
            if (state.compareAndSet(s, next)) {
                return next;
            }
        }
    }
}
