package io.cuzk.engine;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Partitions waiting for the next stage, highest priority first, then oldest: a lock-free skip
 * list, and a semaphore with one permit per partition added so that a consumer sleeps until there
 * is work. A canceller may take a partition out in between; the consumer then finds nothing for
 * its permit and looks again.
 */
final class WorkQueue {
    private final ConcurrentSkipListSet<Partition> set = new ConcurrentSkipListSet<>();
    private final Semaphore permits = new Semaphore(0);

    void add(Partition p) {
        set.add(p);
        permits.release();
    }

    /** Waits for a permit: something was added since the last one was taken. */
    void awaitWork() throws InterruptedException {
        permits.acquire();
    }

    /** Waits for work and takes the first partition; null when a canceller took it first. */
    Partition take() throws InterruptedException {
        permits.acquire();
        return set.pollFirst();
    }

    /** Waits up to nanos for work and takes the first partition; null when none came (or a canceller took it). */
    Partition takeWithin(long nanos) throws InterruptedException {
        if (!permits.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
            return null;
        }
        return set.pollFirst();
    }

    /** The first partition without taking it, or null. */
    Partition first() {
        try {
            return set.first();
        } catch (NoSuchElementException empty) {
            return null;
        }
    }

    /** Takes p out; false if someone else did. */
    boolean remove(Partition p) {
        return set.remove(p);
    }

    boolean isEmpty() {
        return set.isEmpty();
    }

    List<Partition> snapshot() {
        return List.copyOf(set);
    }
}
