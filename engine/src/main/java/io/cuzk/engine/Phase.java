package io.cuzk.engine;

/**
 * The phases of a partition's life, each between two of its timestamps: how the engine reports
 * where time goes, per partition ({@link JobHandle#partitionTimes}) and over all of them
 * ({@link EngineStatus#phasesMs}).
 */
public enum Phase {
    /** Submitted until its memory was reserved (waiting in priority order). */
    QUEUED("queued"),
    /** A synthesis worker filled its a, b and c. */
    SYNTHESIS("synthesis"),
    /** Synthesized until a device worker queued it on its device. */
    READY("ready"),
    /** Queued on the device until its kernels started. */
    DEVICE_QUEUE("deviceQueue"),
    /** Its kernels: H and the MSMs. */
    DEVICE("device"),
    /** A finalizer assembled the proof and returned the memory. */
    FINALIZE("finalize"),
    /** Submitted until finalized. */
    TOTAL("total");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    /** The name reports use, such as {@code deviceQueue}. */
    public String label() {
        return label;
    }

    /** When p entered this phase (System.nanoTime()), 0 if it has not. */
    long start(Partition p) {
        return switch (this) {
            case QUEUED, TOTAL -> p.submitted;
            case SYNTHESIS -> p.synthStart;
            case READY -> p.synthEnd;
            case DEVICE_QUEUE -> p.deviceQueued;
            case DEVICE -> p.deviceStart;
            case FINALIZE -> p.finalizeStart;
        };
    }

    /** When p left this phase, 0 if it has not. */
    long end(Partition p) {
        return switch (this) {
            case QUEUED -> p.reservedAt;
            case SYNTHESIS -> p.synthEnd;
            case READY -> p.deviceQueued;
            case DEVICE_QUEUE -> p.deviceStart;
            case DEVICE -> p.deviceEnd;
            case FINALIZE, TOTAL -> p.finalizeEnd;
        };
    }

    /** p's nanoseconds in this phase, or -1 if it has not been through it. */
    long nanos(Partition p) {
        long from = start(p), to = end(p);
        return from != 0 && to != 0 && to >= from ? to - from : -1;
    }
}
