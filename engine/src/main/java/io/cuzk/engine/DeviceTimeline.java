package io.cuzk.engine;

import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The busy intervals of one device. The device's own thread is the only writer: it records each
 * interval's start and end, the idle gaps that passed while work was waiting, and the runs of
 * partitions chained back to back (gaps under 1 ms). Readers take snapshots without ever blocking
 * it: counters are volatile or atomic, recent intervals sit in a ring, and gaps go through an
 * HdrHistogram recorder whose interval histograms the readers accumulate on their side.
 */
final class DeviceTimeline {
    static final long CHAIN_GAP_NANOS = 1_000_000;
    private static final int RING = 1 << 14;

    final String name;
    private final long[] ringStart = new long[RING];
    private final long[] ringEnd = new long[RING];
    private volatile long intervals;
    private volatile long busyNanos;
    private volatile long backlogGapNanos;
    private volatile long firstStart = -1;
    private volatile long lastEnd = -1;
    private volatile int currentChain;
    private volatile int longestChain;
    private volatile boolean busy;
    private long currentStart;
    /** When work began to wait for this device while it was idle; MAX_VALUE when none waits. */
    private final AtomicLong wantedSince = new AtomicLong(Long.MAX_VALUE);
    private final SingleWriterRecorder gaps = new SingleWriterRecorder(3);
    private final Histogram gapTotals = new Histogram(3);

    DeviceTimeline(String name) {
        this.name = name;
    }

    /** Someone has work for this device (a partition became ready); counts from now if it is idle. */
    void wanted(long now) {
        if (!busy) {
            wantedSince.compareAndExchange(Long.MAX_VALUE, now);
        }
    }

    /** The device starts a partition (writer only). */
    void begin(long now) {
        long since = wantedSince.getAndSet(Long.MAX_VALUE);
        long prevEnd = lastEnd;
        if (prevEnd >= 0) {
            long gap = now - prevEnd;
            if (since != Long.MAX_VALUE && since <= now) {
                long waited = now - Math.max(since, prevEnd);
                gaps.recordValue(Math.max(0, waited) / 1000); // microseconds
                backlogGapNanos += Math.max(0, waited);
            }
            currentChain = gap < CHAIN_GAP_NANOS ? currentChain + 1 : 1;
        } else {
            firstStart = now;
            currentChain = 1;
        }
        if (currentChain > longestChain) {
            longestChain = currentChain;
        }
        currentStart = now;
        busy = true;
    }

    /** The device finished its partition (writer only); more work waits if backlog is true. */
    void end(long now, boolean backlog) {
        int slot = (int) (intervals & (RING - 1));
        ringStart[slot] = currentStart;
        ringEnd[slot] = now;
        busyNanos += now - currentStart;
        lastEnd = now;
        busy = false;
        if (backlog) {
            wantedSince.compareAndExchange(Long.MAX_VALUE, now);
        }
        intervals = intervals + 1;
    }

    long partitions() {
        return intervals;
    }

    long busyNanos() {
        return busyNanos + (busy ? System.nanoTime() - currentStart : 0);
    }

    /** Busy share of the time during which work waited for this device: busy / (busy + gaps while work waited). */
    double utilizationWhileBacklog() {
        long b = busyNanos;
        long g = backlogGapNanos;
        return b + g == 0 ? 0 : (double) b / (b + g);
    }

    /** Busy share from the first start to the last end (idle tails without work included). */
    double spanUtilization() {
        long f = firstStart, l = lastEnd;
        return f < 0 || l <= f ? 0 : (double) busyNanos / (l - f);
    }

    /** Busy share of the last window nanoseconds: one bin of {@link #busyShares}. */
    double utilizationOver(long window, long now) {
        return busyShares(now, window, 1)[0];
    }

    /**
     * The busy share of each of {@code bins} consecutive bins of {@code binNanos} that end at now,
     * oldest first, from the recent intervals (the last 16,384) and the one running now.
     */
    double[] busyShares(long now, long binNanos, int bins) {
        double[] out = new double[bins];
        long from = now - binNanos * bins;
        long n = intervals;
        for (long i = n - 1; i >= Math.max(0, n - RING); i--) {
            int slot = (int) (i & (RING - 1));
            long s = ringStart[slot], e = ringEnd[slot];
            if (e <= from) {
                break;
            }
            addBusy(out, from, binNanos, Math.max(s, from), Math.min(e, now));
        }
        if (busy) { // read before currentStart: the writer sets currentStart before busy
            addBusy(out, from, binNanos, Math.max(currentStart, from), now);
        }
        for (int i = 0; i < bins; i++) {
            out[i] = Math.min(1.0, out[i] / binNanos);
        }
        return out;
    }

    private static void addBusy(double[] bins, long from, long binNanos, long start, long end) {
        for (long t = start; t < end;) {
            int b = (int) ((t - from) / binNanos);
            if (b < 0 || b >= bins.length) {
                return;
            }
            long binEnd = from + (b + 1) * binNanos;
            long upTo = Math.min(end, binEnd);
            bins[b] += upTo - t;
            t = upTo;
        }
    }

    int longestChain() {
        return longestChain;
    }

    /** The gaps while work waited, so far (microseconds); readers serialise among themselves only. */
    synchronized Histogram gapHistogram() {
        gapTotals.add(gaps.getIntervalHistogram());
        return gapTotals.copy();
    }
}
