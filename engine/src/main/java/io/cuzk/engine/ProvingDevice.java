package io.cuzk.engine;

import io.cuzk.groth16.Groth16Prover;
import java.util.concurrent.CompletableFuture;

/**
 * A device partitions are proved on. Proving has two phases, so that a worker's host work overlaps
 * the device's work on another worker's partition: {@link #start} queues the partition on the
 * device's stream and returns at once; the returned future is the finish, completed by the device
 * when the kernels are done.
 */
interface ProvingDevice extends AutoCloseable {
    String name();

    DeviceTimeline timeline();

    /**
     * Queues p. The device computes h from p's a, b, c, calls abcTaken once it holds what it needs
     * from them (so their memory can return early), then runs the MSMs.
     */
    CompletableFuture<Groth16Prover.Msms> start(Partition p, Runnable abcTaken);

    /** Partitions queued on the device and not yet running. */
    int queued();

    @Override
    void close();
}
