package io.cuzk.server;

import com.google.protobuf.ByteString;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.api.v1.JobEvent;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.PartitionState;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.Witness;
import io.grpc.stub.ServerCallStreamObserver;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One job the daemon accepted: the engine's handle, the witnesses it owns until the job ends, and
 * once it ends, its final event (the proofs, or why not), kept for the result time. Clients
 * following it with Await are its watchers.
 */
final class ServerJob {
    final long id;
    final String clientJobId;
    final String key;
    final int partitions;
    final JobHandle handle;
    private final Arena arena;
    private final List<Witness> witnesses;
    /** Set before the daemon cancels a job itself, so its watchers learn why. */
    volatile String cancelReason;
    private volatile JobEvent end;
    volatile long endedAtNanos;
    final List<Watcher> watchers = new CopyOnWriteArrayList<>();
    /** Completed with the final event once it is recorded. */
    final CompletableFuture<JobEvent> done = new CompletableFuture<>();
    final long acceptedNanos = System.nanoTime();
    /** The daemon's name, in every event. */
    final String daemon;
    /** Set before the daemon cancels the job because it shuts down: Run calls then end UNAVAILABLE (place it elsewhere). */
    volatile boolean shutDown;
    /** Made by a Run call (not by Submit): cancelled once no Run or Await follows it any more. */
    volatile boolean createdByRun;

    ServerJob(long id, String clientJobId, String key, String daemon, JobHandle handle, Arena arena, List<Witness> witnesses) {
        this.id = id;
        this.daemon = daemon;
        this.clientJobId = clientJobId;
        this.key = key;
        this.partitions = witnesses.size();
        this.handle = handle;
        this.arena = arena;
        this.witnesses = witnesses;
    }

    /** A client following the job; sends are serialized by the watcher's lock. */
    static final class Watcher {
        final ServerCallStreamObserver<JobEvent> out;
        /** For a Run call: the job, whose end by the daemon's shutdown ends the call UNAVAILABLE. */
        private final ServerJob run;
        private JobState lastState;
        private int lastDone = -1;
        private boolean closed;

        Watcher(ServerCallStreamObserver<JobEvent> out) {
            this(out, null);
        }

        Watcher(ServerCallStreamObserver<JobEvent> out, ServerJob run) {
            this.out = out;
            this.run = run;
        }

        /** Sends e if it says something new; ends the stream after a final event. */
        synchronized void offer(JobEvent e) {
            if (closed || (e.getState() == lastState && e.getPartitionsDone() == lastDone)) {
                return;
            }
            lastState = e.getState();
            lastDone = e.getPartitionsDone();
            try {
                if (run != null && run.shutDown && e.getState() == JobState.JOB_STATE_CANCELLED) {
                    closed = true; // not the client's doing: it may run the job on another daemon
                    out.onError(io.grpc.Status.UNAVAILABLE.withDescription("job " + run.id + " on " + run.daemon + ": " + e.getReason())
                            .asRuntimeException());
                    return;
                }
                out.onNext(e);
                if (terminal(e.getState())) {
                    closed = true;
                    out.onCompleted();
                }
            } catch (RuntimeException gone) {
                closed = true; // the client cancelled or went away
            }
        }

        synchronized boolean closed() {
            return closed;
        }

        synchronized void close() {
            closed = true;
        }
    }

    static boolean terminal(JobState s) {
        return s == JobState.JOB_STATE_DONE || s == JobState.JOB_STATE_FAILED || s == JobState.JOB_STATE_CANCELLED;
    }

    /** The final event, or null while the job runs. */
    JobEvent end() {
        return end;
    }

    /** Where the job is now: its final event once it ended, else its progress. */
    JobEvent event() {
        JobEvent e = end;
        if (e != null) {
            return e;
        }
        List<PartitionState> states = handle.partitionStates();
        int finished = 0;
        boolean synth = false, proving = false, finalizing = false;
        for (PartitionState s : states) {
            switch (s) {
                case DONE -> finished++;
                case SYNTHESIZING, READY -> synth = true;
                case PROVING -> proving = true;
                case FINALIZING -> finalizing = true;
                default -> { }
            }
        }
        // ended in the engine (all done, or cancelled or failed) but its final event not yet
        // recorded: it is being finalized, as far as a client can tell
        boolean ending = handle.isDone() || finished == partitions;
        JobState state = ending || (finalizing && !proving) ? JobState.JOB_STATE_FINALIZING : proving ? JobState.JOB_STATE_PROVING
                : synth ? JobState.JOB_STATE_SYNTHESIZING : JobState.JOB_STATE_QUEUED;
        return JobEvent.newBuilder().setJobId(id).setState(state).setPartitions(partitions).setPartitionsDone(finished).setDaemon(daemon)
                .build();
    }

    /** The job as the status lists it, at now (System.nanoTime()). */
    io.cuzk.api.v1.JobSummary summary(long now) {
        JobEvent e = event();
        long ended = endedAtNanos;
        io.cuzk.api.v1.JobSummary.Builder b = io.cuzk.api.v1.JobSummary.newBuilder().setJobId(id).setClientJobId(clientJobId).setKey(key)
                .setPriority(switch (handle.priority()) {
                    case LOW -> io.cuzk.api.v1.Priority.PRIORITY_LOW;
                    case HIGH -> io.cuzk.api.v1.Priority.PRIORITY_HIGH;
                    case CRITICAL -> io.cuzk.api.v1.Priority.PRIORITY_CRITICAL;
                    default -> io.cuzk.api.v1.Priority.PRIORITY_NORMAL;
                }).setState(e.getState()).setPartitions(partitions).setPartitionsDone(e.getPartitionsDone())
                .setSeconds(((ended != 0 ? ended : now) - acceptedNanos) / 1e9);
        if (!e.getReason().isEmpty()) {
            b.setReason(e.getReason());
        }
        return b.build();
    }

    /**
     * Records the job's end (called once, off the engine's threads) and tells its watchers.
     */
    void ended(List<Proof> proofs, Throwable error) {
        JobEvent event;
        try {
            event = endEvent(proofs, error);
        } catch (RuntimeException | Error x) { // its clients hear of it all the same
            event = JobEvent.newBuilder().setJobId(id).setPartitions(partitions).setDaemon(daemon).setState(JobState.JOB_STATE_FAILED)
                    .setReason("the daemon could not encode the job's result: " + x).build();
        }
        endedAtNanos = System.nanoTime();
        end = event;
        for (Watcher w : watchers) {
            w.offer(event);
        }
        done.complete(event);
    }

    private JobEvent endEvent(List<Proof> proofs, Throwable error) {
        JobEvent.Builder e = JobEvent.newBuilder().setJobId(id).setPartitions(partitions).setDaemon(daemon);
        if (error == null) {
            JobResult.Builder r = JobResult.newBuilder().setJobId(id).setDaemon(daemon);
            for (Proof p : proofs) {
                r.addProofs(proof(p));
            }
            e.setState(JobState.JOB_STATE_DONE).setPartitionsDone(partitions).setResult(r);
        } else {
            Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (t instanceof CancellationException) {
                String why = cancelReason;
                e.setState(JobState.JOB_STATE_CANCELLED).setReason(why != null ? why : "job " + id + " was cancelled");
            } else if (t instanceof io.cuzk.engine.PartitionFailedException p) { // the event names the job: the reason names the partition
                Throwable why = p.getCause();
                e.setState(JobState.JOB_STATE_FAILED).setReason("partition " + p.partition() + ": " + (why.getMessage() != null
                        ? why.getMessage() : why.toString()));
                if (why instanceof io.cuzk.engine.SelfCheckFailedException) {
                    e.setFailure(io.cuzk.api.v1.FailureKind.FAILURE_KIND_SELF_CHECK);
                }
            } else {
                e.setState(JobState.JOB_STATE_FAILED).setReason(t.getMessage() != null ? t.getMessage() : t.toString());
            }
        }
        return e.build();
    }

    /** Frees the witnesses: called once the engine released the job (after its end, or later for a cancelled one). */
    void free() {
        try {
            for (Witness w : witnesses) {
                w.close();
            }
        } finally {
            arena.close();
        }
    }

    static PartitionProof proof(Proof p) {
        PartitionProof.Builder b = PartitionProof.newBuilder().setProofJson(p.proofJson()).setPublicJson(p.publicJson())
                .setProof(ByteString.copyFrom(raw(p)));
        for (BigInteger s : p.publicSignals()) {
            b.addPublicSignals(s.toString());
        }
        return b.build();
    }

    /**
     * pi_a, pi_b and pi_c in the Ethereum precompiles' encodings, written by the project's codec:
     * EIP-196/197 on BN254 (64 + 128 + 64 bytes), EIP-2537 on BLS12-381 (128 + 256 + 128).
     */
    static byte[] raw(Proof p) {
        Encoding e = p.curve() == Curve.BN254 ? Encoding.EIP196 : Encoding.EIP2537;
        byte[] a = Codec.encode(p.piA(), e), b = Codec.encode(p.piB(), e), c = Codec.encode(p.piC(), e);
        byte[] out = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }
}
