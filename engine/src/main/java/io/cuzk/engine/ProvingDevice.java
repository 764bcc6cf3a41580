package io.cuzk.engine;

import io.cuzk.Backend;

/**
 * A device partitions are proved on, as the device workers see it. Proving has two phases, so
 * that a worker's host work overlaps the device's work on another worker's partition:
 * {@link #start} queues the partition on the worker's lane and returns at once; the returned
 * {@link Backend.Pending#finish()} waits for the kernels. {@link BackendDevice} is the one
 * implementation over a {@link Backend}; the tests put failing devices here.
 */
interface ProvingDevice extends AutoCloseable {
    String name();

    DeviceTimeline timeline();

    /**
     * Queues p on lane (one per device worker). The device computes h from p's a, b, c, calls
     * abcTaken once it holds what it needs from them (so their memory can return early), then runs
     * the MSMs.
     */
    Backend.Pending start(int lane, Partition p, Runnable abcTaken);

    /** Partitions queued on the device and not yet running. */
    int queued();

    /** Frees the device's lanes and resident keys: only once no kernel runs any more. */
    @Override
    void close();
}
