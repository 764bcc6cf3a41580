package io.cuzk.engine;

import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of the engine. Taking it never blocks a worker in the lock-free tracker.
 *
 * @param tracker which status tracker the engine runs: its own lock-free one, or the contended baseline
 * @param devices per device: utilization, idle gaps while work waited, chains
 * @param queues partitions in each non-terminal state
 * @param memory budget, pool and key figures, in bytes
 * @param lookahead how far synthesis runs ahead of the devices
 * @param counters totals since start
 * @param workers what each device worker does now
 * @param phasesMs per-phase times of finished partitions (p50, p99, max, in milliseconds)
 */
public record EngineStatus(TrackerMode tracker, List<Device> devices, Map<PartitionState, Integer> queues, Memory memory,
        Lookahead lookahead, Counters counters, List<Worker> workers, Map<Phase, Percentiles> phasesMs) {

    /**
     * @param utilization busy share of the time during which work waited for the device
     * @param spanUtilization busy share from its first start to its last end
     * @param recentUtilization busy share over the last 10 seconds
     * @param gapsMs idle gaps while work waited for the device
     * @param longestChain most partitions run back to back (gaps under 1 ms)
     */
    public record Device(String name, long partitions, double utilization, double spanUtilization, double recentUtilization,
            Percentiles gapsMs, long gapCount, int longestChain, double busySeconds) {}

    /**
     * @param poolAllocated bytes the slab pool holds from the system (in use and idle)
     * @param poolIdle of those, idle and ready for reuse
     * @param poolInUse of those, held by partitions
     * @param poolPeak the most the pool ever held
     * @param poolReturnedBytes bytes of idle blocks given back to the system after their idle time
     * @param poolReturnedBlocks how many such blocks
     */
    public record Memory(long budgetCapacity, long budgetUsed, long budgetPeak, long poolAllocated, long poolIdle, long poolInUse,
            long poolPeak, long poolReturnedBytes, long poolReturnedBlocks, long pinned, long outstandingBlocks, long systemAllocations,
            long keysResident, long keyBytes) {}

    /**
     * @param limit partitions admitted ahead of the devices at most (synthesizing or ready)
     * @param admitted admitted now
     * @param peak the most admitted at once
     */
    public record Lookahead(int limit, int admitted, int peak) {}

    /**
     * @param selfChecks proofs verified by the self-check ({@link Config#selfCheck()})
     * @param selfCheckFailures of those, the ones that did not verify (their partitions failed)
     * @param selfCheckSeconds the time the self-checks took, in the finalizers
     */
    public record Counters(long jobsSubmitted, long jobsDone, long jobsFailed, long jobsCancelled, long partitionsDone,
            long partitionsFailed, long partitionsCancelled, long selfChecks, long selfCheckFailures, double selfCheckSeconds) {}

    public record Worker(String name, String activity, String partition, double forSeconds, long partitions) {}

    /**
     * A distribution of times in milliseconds: its percentiles and, for a histogram of it (the
     * daemon's Prometheus metrics), its sum and how many fell in each bucket of {@link #BOUNDS_MS}
     * (upper bounds, inclusive), the last entry counting those above them all.
     */
    public record Percentiles(double p50, double p99, double max, long count, double sumMs, long[] buckets) {
        /** The buckets' upper bounds in milliseconds: from gaps of 0.1 ms to proofs of 10 minutes. */
        public static final double[] BOUNDS_MS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000,
            30_000, 60_000, 120_000, 300_000, 600_000};

        public Percentiles {
            buckets = buckets.clone();
        }

        @Override
        public long[] buckets() {
            return buckets.clone();
        }
    }
}
