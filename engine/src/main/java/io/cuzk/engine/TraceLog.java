package io.cuzk.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last {@code capacity} proved partitions, in a ring a finalizer appends to without a lock
 * (one counter increment and one array store); readers copy what is there. A record may be
 * overwritten while a reader copies the ring: the reader then has the newer one, which is fine
 * for a trace.
 */
final class TraceLog {
    private final AtomicReferenceArray<PartitionTrace> ring;
    private final int mask;
    private final AtomicLong next = new AtomicLong();

    TraceLog(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("the capacity must be a power of two: " + capacity);
        }
        this.ring = new AtomicReferenceArray<>(capacity);
        this.mask = capacity - 1;
    }

    void add(Partition p) {
        ring.set((int) (next.getAndIncrement() & mask), PartitionTrace.of(p));
    }

    /** The records held, oldest first, those that finalized at or after sinceNanos only. */
    List<PartitionTrace> since(long sinceNanos) {
        long end = next.get();
        long start = Math.max(0, end - ring.length());
        List<PartitionTrace> out = new ArrayList<>((int) (end - start));
        for (long i = start; i < end; i++) {
            PartitionTrace t = ring.get((int) (i & mask));
            if (t != null && t.finalizeEnd() >= sinceNanos) {
                out.add(t);
            }
        }
        return out;
    }
}
