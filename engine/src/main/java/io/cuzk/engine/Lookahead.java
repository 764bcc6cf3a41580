package io.cuzk.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * How far synthesis runs ahead of the devices: the partitions admitted (memory reserved, being
 * synthesized or ready) but not yet taken by a device worker. The dispatcher admits a partition only
 * below the limit, so the memory in use follows the work in flight, however long the backlog; the
 * memory budget stays the hard cap under it.
 *
 * <p>The limit is the synthesis workers (each may hold one partition) plus, per device worker, the
 * ready partitions that keep it fed: {@code readyPerWorker} when configured, else derived from
 * the measured times: while one synthesis runs (Ts), the devices prove Ts / Td partitions each
 * (Td: a device's time per partition), so that many must be ready, plus one per worker for
 * jitter; two per worker until both times are measured.
 *
 * <p>Only the dispatcher waits here; device workers and finalizers leave with one atomic decrement
 * and an unpark, and never wait: nothing on their path takes a lock.
 */
final class Lookahead {
    private static final int UNMEASURED_PER_WORKER = 2;
    private static final int MAX_PER_WORKER = 64;

    private final int synthesisWorkers;
    private final int deviceWorkers;
    private final int devices;
    private final int fixedPerWorker; // 0: derived
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private volatile int limit;
    private volatile Thread waiter;
    // exponentially weighted averages of the measured times, in nanoseconds (0: none yet)
    private volatile double synthesisNanos;
    private volatile double deviceNanos;

    Lookahead(int synthesisWorkers, int deviceWorkers, int devices, int fixedPerWorker) {
        this.synthesisWorkers = synthesisWorkers;
        this.deviceWorkers = deviceWorkers;
        this.devices = devices;
        this.fixedPerWorker = fixedPerWorker;
        this.limit = synthesisWorkers + deviceWorkers * (fixedPerWorker > 0 ? fixedPerWorker : UNMEASURED_PER_WORKER);
    }

    /**
     * For the dispatcher: takes a place if one is free, else parks up to timeoutNanos (a leave
     * unparks it) and returns false, so that the caller can look again at what it waits for.
     */
    boolean tryEnter(long timeoutNanos) {
        waiter = Thread.currentThread();
        while (true) {
            int n = admitted.get();
            if (n >= limit) {
                LockSupport.parkNanos(this, timeoutNanos);
                return false;
            }
            if (admitted.compareAndSet(n, n + 1)) {
                peak.accumulateAndGet(n + 1, Math::max);
                return true;
            }
        }
    }

    /** A place given back: its partition went to a device, or will never go. */
    void leave() {
        admitted.decrementAndGet();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** One synthesis took this long (by a synthesis worker). */
    void synthesisTook(long nanos) {
        synthesisNanos = average(synthesisNanos, nanos);
        derive();
    }

    /** One partition held its device this long (by a device worker). */
    void deviceTook(long nanos) {
        deviceNanos = average(deviceNanos, nanos);
        derive();
    }

    private static double average(double old, long sample) {
        return old == 0 ? sample : 0.9 * old + 0.1 * sample;
    }

    private void derive() {
        if (fixedPerWorker > 0) {
            return;
        }
        double ts = synthesisNanos, td = deviceNanos;
        if (ts == 0 || td == 0) {
            return;
        }
        // td is a partition's time on its lane; a device with k lanes finishes one every td / k
        double perDeviceInterval = td / Math.max(1, deviceWorkers / Math.max(1, devices));
        double needed = ts * devices / perDeviceInterval; // ready partitions the devices prove during one synthesis
        int perWorker = (int) Math.min(MAX_PER_WORKER, Math.ceil(needed / deviceWorkers) + 1);
        int l = synthesisWorkers + deviceWorkers * perWorker;
        if (l != limit) {
            limit = l;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w); // a larger limit may admit now
            }
        }
    }

    int limit() {
        return limit;
    }

    int admitted() {
        return admitted.get();
    }

    int peak() {
        return peak.get();
    }
}
