package io.cuzk.engine;

import io.cuzk.Groth16Msms;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.VerificationKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The last stage: finalizers assemble a partition's proof from its MSMs (with fresh blinding),
 * return all of its memory to the pool and its budget, verify the proof when the engine runs with
 * the self-check, and complete its job when it was the last.
 * They hold nothing a device worker waits for (unless the contended baseline tracker says so).
 */
final class Finalizers {
    private final ExecutorService pool;
    private final Ledger ledger;
    private final StatusTracker tracker;
    private final EngineMetrics metrics;
    private final Blinding blinding = Blinding.secure();
    /** With the self-check: each key's verification key, made once, dropped when the key is closed. */
    private final ConcurrentHashMap<ProvingKey, VerificationKey> verificationKeys;

    Finalizers(int threads, Ledger ledger, StatusTracker tracker, EngineMetrics metrics, boolean selfCheck) {
        this.pool = Executors.newFixedThreadPool(threads, Engine.daemon("cuzk-finalizer"));
        this.ledger = ledger;
        this.tracker = tracker;
        this.metrics = metrics;
        this.verificationKeys = selfCheck ? new ConcurrentHashMap<>() : null;
    }

    /** The proof verifies against its key (the self-check), or the partition fails with why. */
    private void selfCheck(Partition p) {
        VerificationKey vk = verificationKeys.computeIfAbsent(p.key, k -> {
            k.onClose(() -> verificationKeys.remove(k));
            return VerificationKey.of(k);
        });
        long t0 = System.nanoTime();
        boolean valid;
        String why = "";
        try {
            valid = Groth16Verifier.verify(vk, p.proof);
        } catch (io.cuzk.groth16.FormatException e) { // a B outside G2, found by the pairing
            valid = false;
            why = ": " + e.getMessage();
        }
        metrics.selfCheckNanos.add(System.nanoTime() - t0);
        metrics.selfChecks.increment();
        if (!valid) {
            metrics.selfCheckFailures.increment();
            // the job and partition are named by the PartitionFailedException this becomes the cause of
            String key = p.key.name().substring(p.key.name().lastIndexOf('/') + 1); // the file's name: a daemon's paths are its own
            throw new SelfCheckFailedException("its proof does not verify against " + key + " (self-check" + why
                    + "), so it was not handed out: a witness that does not satisfy the circuit does this (snarkjs wtns check tells),"
                    + " or a device that computed wrongly");
        }
    }

    /** Hands p over; once the finalizers stop (a worker that outlived the engine's stop), p is finished here. */
    void submit(Partition p, Groth16Msms msms) {
        try {
            pool.execute(() -> finish(p, msms));
        } catch (RejectedExecutionException stopping) {
            finish(p, msms);
        }
    }

    private void finish(Partition p, Groth16Msms msms) {
        tracker.finalize(p, () -> {
            p.finalizeStart = System.nanoTime();
            p.finalizer = Thread.currentThread().getName();
            if (!ledger.move(p, PartitionState.PROVING, PartitionState.FINALIZING)) {
                ledger.releaseAll(p); // cancelled while on the device
                return;
            }
            try {
                p.proof = Groth16Prover.assemble(p.key, msms, blinding.draw(p.key.curve()), p.publicSignals);
                ledger.releaseAll(p);
                if (verificationKeys != null) {
                    selfCheck(p);
                }
                p.finalizeEnd = System.nanoTime();
                // Counted and timed before DONE is visible: another finalizer may complete the job
                // as soon as this partition is DONE, and whoever then reads the status must see it.
                metrics.partitionsDone.increment();
                metrics.recordPhases(p); // its phases all ran, even if it is cancelled below
                metrics.trace.add(p);
                if (ledger.move(p, PartitionState.FINALIZING, PartitionState.DONE)) {
                    ledger.completeIfDone(p.job);
                } else {
                    metrics.partitionsDone.decrement(); // cancelled at the last moment
                }
            } catch (Throwable t) {
                ledger.fail(p, t);
            }
        });
    }

    /** Lets queued finalizations finish; true if they did before the deadline. */
    boolean stop(long deadline) throws InterruptedException {
        pool.shutdown();
        return pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
}
