package io.cuzk.engine;

/** Where one partition of a job is. */
public enum PartitionState {
    /** Waiting for its memory reservation (in priority order). */
    QUEUED,
    /** A synthesis worker fills its a, b, c. */
    SYNTHESIZING,
    /** Synthesized; waiting for a device worker. */
    READY,
    /** On a device: NTTs and MSMs. */
    PROVING,
    /** A finalizer assembles the proof and returns the memory. */
    FINALIZING,
    DONE,
    FAILED,
    CANCELLED;

    public boolean terminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }
}
