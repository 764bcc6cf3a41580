package io.cuzk.engine;

import io.cuzk.CuzkException;

/** A partition failed, and with it its job; the cause says why. */
public final class PartitionFailedException extends CuzkException {
    private static final long serialVersionUID = 1L;

    private final long jobId;
    private final int partition;

    public PartitionFailedException(long jobId, int partition, Throwable cause) {
        super(null, "job " + jobId + " partition " + partition + " failed: " + describe(cause), null);
        initCause(cause);
        this.jobId = jobId;
        this.partition = partition;
    }

    /** The cause's own message (it names the file and the fault); its class only when it has none. */
    private static String describe(Throwable cause) {
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    public long jobId() {
        return jobId;
    }

    public int partition() {
        return partition;
    }
}
