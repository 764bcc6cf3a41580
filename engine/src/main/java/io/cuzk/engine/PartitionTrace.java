package io.cuzk.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * What one proved partition did and where: which threads synthesized, proved and finalized it,
 * and when (System.nanoTime() values; 0 where a step did not happen or was not reported).
 * {@link Engine#trace()} gives the last ones; a trace viewer draws them as slices on one track per
 * worker, which shows chains and the gaps between them.
 *
 * @param job the job's id
 * @param partition the partition's index in its job
 * @param key the proving key's name
 * @param priority the job's priority
 * @param submitted when the job was submitted
 * @param synthesisWorker the synthesis worker's thread
 * @param deviceWorker the device worker's thread
 * @param taken when the device worker took the partition from the ready queue
 * @param deviceQueued when the device worker had queued it on its device lane
 * @param deviceStart when its kernels started on the device
 * @param hComputed when H was done and the MSMs began (0 where the backend does not report it)
 * @param deviceEnd when its kernels ended
 * @param handedOff when the device worker handed its results to the finalizers
 * @param finalizer the finalizer's thread
 */
public record PartitionTrace(long job, int partition, String key, Priority priority, long submitted, String synthesisWorker,
        long synthesisStart, long synthesisEnd, String deviceWorker, long taken, long deviceQueued, long deviceStart, long hComputed,
        long deviceEnd, long handedOff, String finalizer, long finalizeStart, long finalizeEnd) {

    /** The phase names of {@link Interval}, in a partition's order. */
    public static final String SYNTHESIS = "synthesis", HANDOFF = "handoff", H = "H", MSMS = "MSMs", DEVICE = "device",
            FINISH = "finish", FINALIZE = "finalize";

    /**
     * One phase of a partition on the worker that ran it, between two System.nanoTime() values.
     * {@code onDevice} is true for the device's own work (H, MSMs, or device where the backend does
     * not split it), whose union over a device's workers is the time that device was busy.
     */
    public record Interval(String worker, String phase, long start, long end) {
        public boolean onDevice() {
            return phase.equals(H) || phase.equals(MSMS) || phase.equals(DEVICE);
        }
    }

    /**
     * The phases it went through, on their workers, in order: synthesis (synthesis worker);
     * handoff (the device worker from taking it to queuing it on the device: the status tracker's
     * start report lies here), H and MSMs (or device, as one), finish (the device worker from the
     * kernels' end to handing over to the finalizers: collecting the results and the tracker's finish
     * report); finalize (finalizer).
     */
    public List<Interval> intervals() {
        List<Interval> out = new ArrayList<>(7);
        add(out, synthesisWorker, SYNTHESIS, synthesisStart, synthesisEnd);
        add(out, deviceWorker, HANDOFF, taken, deviceQueued);
        if (hComputed != 0 && hComputed >= deviceStart && hComputed <= deviceEnd) {
            add(out, deviceWorker, H, deviceStart, hComputed);
            add(out, deviceWorker, MSMS, hComputed, deviceEnd);
        } else {
            add(out, deviceWorker, DEVICE, deviceStart, deviceEnd);
        }
        add(out, deviceWorker, FINISH, deviceEnd, handedOff);
        add(out, finalizer, FINALIZE, finalizeStart, finalizeEnd);
        return out;
    }

    private static void add(List<Interval> out, String worker, String phase, long start, long end) {
        if (worker != null && start != 0 && end >= start) {
            out.add(new Interval(worker, phase, start, end));
        }
    }

    static PartitionTrace of(Partition p) {
        return new PartitionTrace(p.job.id(), p.index, p.key.name(), p.job.priority(), p.submitted, p.synthesisWorker, p.synthStart,
                p.synthEnd, p.deviceWorker, p.taken, p.deviceQueued, p.deviceStart, p.hComputed, p.deviceEnd, p.handedOff, p.finalizer,
                p.finalizeStart, p.finalizeEnd);
    }
}
