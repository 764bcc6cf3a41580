package io.cuzk.engine;

import io.cuzk.CuzkException;

/** A partition failed, and with it its job; the cause says why. */
public final class PartitionFailedException extends CuzkException {
    private static final long serialVersionUID = 1L;

    private final long jobId;
    private final int partition;

    public PartitionFailedException(long jobId, int partition, Throwable cause) {
        super(null, "job " + jobId + " partition " + partition + " failed: " + cause, null);
        initCause(cause);
        this.jobId = jobId;
        this.partition = partition;
    }

    public long jobId() {
        return jobId;
    }

    public int partition() {
        return partition;
    }
}
