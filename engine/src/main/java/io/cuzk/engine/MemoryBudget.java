package io.cuzk.engine;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's byte budget. Only the dispatcher acquires, one partition at a time in priority
 * order, so there is no race for freed bytes and no thundering herd; releases come from any thread.
 * A release signals under the same lock the acquirer waits on, and the acquirer re-checks its
 * condition in a loop, so a release can never be missed. The use never exceeds the capacity: the
 * peak is kept, and checked by the tests.
 */
final class MemoryBudget {
    private final long capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private volatile long used;
    private volatile long peak;

    MemoryBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("the memory budget must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    long capacity() {
        return capacity;
    }

    long used() {
        return used;
    }

    long peak() {
        return peak;
    }

    /**
     * Takes bytes if they fit; otherwise waits up to timeoutNanos for a release and returns false,
     * so that the caller can look again at what it should wait for (a higher-priority partition may
     * have arrived). The check and the wait happen under one lock, so a release between them cannot
     * be missed.
     */
    boolean acquireOrWait(long bytes, long timeoutNanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (used + bytes <= capacity) {
                used += bytes;
                if (used > peak) {
                    peak = used;
                }
                return true;
            }
            released.awaitNanos(timeoutNanos);
            return false;
        } finally {
            lock.unlock();
        }
    }

    void release(long bytes) {
        if (bytes == 0) {
            return;
        }
        lock.lock();
        try {
            if (bytes < 0 || bytes > used) {
                throw new IllegalStateException("releasing " + bytes + " bytes of a budget using " + used);
            }
            used -= bytes;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
