package io.cuzk.engine;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The engine's counters and per-phase latency histograms. Writers (every stage) only add to
 * striped counters and record into HdrHistogram recorders, which never block; readers accumulate
 * the recorders' interval histograms on their side.
 */
final class EngineMetrics {
    final LongAdder jobsSubmitted = new LongAdder(), jobsDone = new LongAdder(), jobsFailed = new LongAdder(),
            jobsCancelled = new LongAdder(), partitionsDone = new LongAdder(), partitionsFailed = new LongAdder(),
            partitionsCancelled = new LongAdder(), arenasNotReturned = new LongAdder(), selfCheckNanos = new LongAdder(),
            selfChecks = new LongAdder(), selfCheckFailures = new LongAdder();
    private final Map<Phase, Recorder> recorders = new EnumMap<>(Phase.class);
    private final Map<Phase, Histogram> totals = new EnumMap<>(Phase.class);

    EngineMetrics() {
        for (Phase phase : Phase.values()) {
            recorders.put(phase, new Recorder(3));
            totals.put(phase, new Histogram(3));
        }
    }

    /** Records the phases of a partition that went through all of them (microseconds). */
    /** The last partitions proved, for traces. */
    final TraceLog trace = new TraceLog(1 << 16);

    void recordPhases(Partition p) {
        for (Phase phase : Phase.values()) {
            recorders.get(phase).recordValue(Math.max(0, phase.nanos(p)) / 1000);
        }
    }

    EngineStatus.Counters counters() {
        return new EngineStatus.Counters(jobsSubmitted.sum(), jobsDone.sum(), jobsFailed.sum(), jobsCancelled.sum(),
                partitionsDone.sum(), partitionsFailed.sum(), partitionsCancelled.sum(), selfChecks.sum(), selfCheckFailures.sum(),
                selfCheckNanos.sum() / 1e9);
    }

    /** p50, p99 and max of each phase so far, in milliseconds; readers serialise among themselves only. */
    Map<Phase, EngineStatus.Percentiles> phases() {
        Map<Phase, EngineStatus.Percentiles> out = new EnumMap<>(Phase.class);
        synchronized (totals) {
            for (Phase phase : Phase.values()) {
                Histogram total = totals.get(phase);
                total.add(recorders.get(phase).getIntervalHistogram());
                out.put(phase, percentiles(total));
            }
        }
        return out;
    }

    /** Percentiles and buckets of a histogram of microseconds. */
    static EngineStatus.Percentiles percentiles(Histogram h) {
        double[] bounds = EngineStatus.Percentiles.BOUNDS_MS;
        long[] buckets = new long[bounds.length + 1];
        if (h.getTotalCount() == 0) {
            return new EngineStatus.Percentiles(0, 0, 0, 0, 0, buckets);
        }
        long below = 0;
        for (int i = 0; i < bounds.length; i++) {
            long micros = (long) (bounds[i] * 1000);
            long upTo = micros >= h.getMaxValue() ? h.getTotalCount() : h.getCountBetweenValues(0, micros);
            buckets[i] = upTo - below;
            below = upTo;
        }
        buckets[bounds.length] = h.getTotalCount() - below;
        return new EngineStatus.Percentiles(h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                h.getMaxValue() / 1000.0, h.getTotalCount(), h.getMean() * h.getTotalCount() / 1000.0, buckets);
    }
}
