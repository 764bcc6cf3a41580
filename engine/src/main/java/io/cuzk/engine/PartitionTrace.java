package io.cuzk.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * What one proved partition did and where: which threads synthesized, proved and finalized it,
 * and when (System.nanoTime() values). {@link Engine#trace()} gives the last ones; a trace viewer
 * draws them as slices on one track per worker, which shows chains and the gaps between them.
 *
 * @param job the job's id
 * @param partition the partition's index in its job
 * @param key the proving key's name
 * @param priority the job's priority
 * @param submitted when the job was submitted
 * @param synthesisWorker the synthesis worker's thread
 * @param deviceWorker the device worker's thread
 * @param finalizer the finalizer's thread
 */
public record PartitionTrace(long job, int partition, String key, Priority priority, long submitted, String synthesisWorker,
        long synthesisStart, long synthesisEnd, String deviceWorker, long deviceQueued, long deviceStart, long deviceEnd,
        String finalizer, long finalizeStart, long finalizeEnd) {

    /** One phase of a partition on the worker that ran it, between two System.nanoTime() values. */
    public record Interval(String worker, String phase, long start, long end) {}

    /** The phases it went through (synthesis, device: H and the MSMs, finalize), on their workers, in that order. */
    public List<Interval> intervals() {
        List<Interval> out = new ArrayList<>(3);
        add(out, synthesisWorker, "synthesis", synthesisStart, synthesisEnd);
        add(out, deviceWorker, "device", deviceStart, deviceEnd);
        add(out, finalizer, "finalize", finalizeStart, finalizeEnd);
        return out;
    }

    private static void add(List<Interval> out, String worker, String phase, long start, long end) {
        if (worker != null && start != 0 && end >= start) {
            out.add(new Interval(worker, phase, start, end));
        }
    }

    static PartitionTrace of(Partition p) {
        return new PartitionTrace(p.job.id(), p.index, p.key.name(), p.job.priority(), p.submitted, p.synthesisWorker, p.synthStart,
                p.synthEnd, p.deviceWorker, p.deviceQueued, p.deviceStart, p.deviceEnd, p.finalizer, p.finalizeStart, p.finalizeEnd);
    }
}
