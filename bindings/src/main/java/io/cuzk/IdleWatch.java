package io.cuzk;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells when a device has been idle long enough to give back the memory it keeps for reuse: its
 * work {@link #begin}s and {@link #end}s, and {@link #due} says yes once per quiet period (nothing
 * running, idleNanos since the last end). Lock-free: the device's workers only count.
 */
final class IdleWatch {
    private final long idleNanos;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong lastEnd;
    /** The lastEnd of the quiet period already reported, so that one period is reported once. */
    private final AtomicLong reported = new AtomicLong(Long.MIN_VALUE);

    /** idleNanos 0 or less: never due. */
    IdleWatch(long idleNanos, long now) {
        this.idleNanos = idleNanos;
        this.lastEnd = new AtomicLong(now);
    }

    void begin() {
        running.incrementAndGet();
    }

    void end(long now) {
        lastEnd.accumulateAndGet(now, Math::max); // before the count drops, so due() never sees an old end with nothing running
        running.decrementAndGet();
    }

    /** True once per quiet period, at or after idleNanos past the last end with nothing running. */
    boolean due(long now) {
        if (idleNanos <= 0 || running.get() > 0) {
            return false;
        }
        long end = lastEnd.get();
        if (now - end < idleNanos) {
            return false;
        }
        long prev = reported.get();
        return prev != end && reported.compareAndSet(prev, end);
    }
}
