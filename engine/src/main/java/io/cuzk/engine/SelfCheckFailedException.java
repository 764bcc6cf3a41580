package io.cuzk.engine;

/**
 * A proof the engine made does not verify against its key (the self-check, {@link Config.Builder#selfCheck(boolean)}),
 * so it was not handed out; it fails its partition (the cause of the job's
 * {@link PartitionFailedException}). The usual reason is the witness: one that does not satisfy
 * the circuit's constraints still gives a proof, which cannot verify. Otherwise the device that
 * proved it computed wrongly.
 */
public final class SelfCheckFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SelfCheckFailedException(String message) {
        super(message);
    }
}
