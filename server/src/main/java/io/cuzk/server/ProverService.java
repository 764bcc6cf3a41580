package io.cuzk.server;

import com.google.protobuf.ByteString;
import io.cuzk.api.v1.AwaitRequest;
import io.cuzk.api.v1.CancelReply;
import io.cuzk.api.v1.CancelRequest;
import io.cuzk.api.v1.DeviceStatus;
import io.cuzk.api.v1.JobEvent;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.JobSpec;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.ListKeysReply;
import io.cuzk.api.v1.ListKeysRequest;
import io.cuzk.api.v1.MemoryStatus;
import io.cuzk.api.v1.Percentiles;
import io.cuzk.api.v1.ProveRequest;
import io.cuzk.api.v1.ProverGrpc;
import io.cuzk.api.v1.Status;
import io.cuzk.api.v1.StatusRequest;
import io.cuzk.api.v1.SubmitReply;
import io.cuzk.api.v1.SubmitRequest;
import io.cuzk.api.v1.WitnessChunk;
import io.cuzk.engine.BudgetExceededException;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.Job;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.PartitionState;
import io.cuzk.engine.Priority;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cuzk.v1.Prover service over one engine and one key folder. Every failure a client causes
 * is a gRPC status naming what is wrong; none reaches the engine's threads or another job.
 */
final class ProverService extends ProverGrpc.ProverImplBase {
    static final int MAX_CLIENT_ID = 128;

    private final Engine engine;
    private final KeyDirectory keys;
    private final ServerLimits limits;
    private final Executor completions;
    private final long startedNanos = System.nanoTime();
    private final AtomicLong ids = new AtomicLong();
    /** Partitions accepted and not yet ended, and their integral over time (the load reports' utilization). */
    final HeldPartitions held = new HeldPartitions();
    /** Witness bytes of Submit streams not yet accepted, over all of them. */
    private final AtomicLong receiving = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger inAccept = new java.util.concurrent.atomic.AtomicInteger();
    /** Jobs whose witnesses the engine has not released yet: the keys are closed only when none is left. */
    final java.util.concurrent.atomic.AtomicInteger unreleased = new java.util.concurrent.atomic.AtomicInteger();
    final Map<Long, ServerJob> jobs = new ConcurrentHashMap<>();
    /** Jobs listed by the status, at most. */
    static final int STATUS_JOBS = 100;
    private final Map<String, CompletableFuture<ServerJob>> byClientId = new ConcurrentHashMap<>();
    private volatile boolean draining;

    /** The load reported to balancing clients, in the status too; set once the server is built. */
    volatile LoadReports load;
    /** The daemon's name (serve --name), in its status and in every job event; set once the port is known. */
    volatile String name;

    ProverService(String name, Engine engine, KeyDirectory keys, ServerLimits limits, Executor completions) {
        this.name = name;
        this.engine = engine;
        this.keys = keys;
        this.limits = limits;
        this.completions = completions;
    }

    void drain() {
        draining = true;
    }

    /**
     * The drain's time is over: a submission still calculating its witnesses stops at its next
     * one (UNAVAILABLE: the client places the job elsewhere) instead of keeping the daemon up.
     */
    void drainTimeOver() {
        drainTimeOver = true;
    }

    private volatile boolean drainTimeOver;

    /**
     * Between the witnesses the daemon calculates for a job (each can take seconds): a call its
     * client gave up (cancelled, past its deadline) or a drain past its time stops the job before
     * it is made.
     */
    private void requireStillWanted(int partition) {
        if (io.grpc.Context.current().isCancelled()) {
            throw status(io.grpc.Status.CANCELLED, "the call was cancelled while the daemon calculated the job's witnesses (at partition "
                    + partition + ")");
        }
        if (drainTimeOver) {
            throw status(io.grpc.Status.UNAVAILABLE, "the daemon is shutting down: its drain time ended while it calculated the job's "
                    + "witnesses (at partition " + partition + ")");
        }
    }

    /** Partitions accepted and not yet ended (queued, in synthesis, on a device, finalizing). */
    long queuedPartitions() {
        return held.count();
    }

    boolean draining() {
        return draining;
    }

    /** Jobs accepted and not ended. */
    List<ServerJob> running() {
        List<ServerJob> out = new ArrayList<>();
        for (ServerJob j : jobs.values()) {
            if (j.end() == null) {
                out.add(j);
            }
        }
        return out;
    }

    // ---- accepting jobs -------------------------------------------------------------------------


    private static StatusRuntimeException status(io.grpc.Status s, String message) {
        return s.withDescription(message).asRuntimeException();
    }

    /** A Prove whose job ended without proofs: the status, with the job's id and kind of failure in its trailers ({@link io.cuzk.api.Trailers}). */
    private static StatusRuntimeException ended(io.grpc.Status s, String message, long jobId, io.cuzk.api.v1.FailureKind kind) {
        io.grpc.Metadata trailers = new io.grpc.Metadata();
        trailers.put(io.cuzk.api.Trailers.JOB_ID, Long.toString(jobId));
        trailers.put(io.cuzk.api.Trailers.FAILURE_KIND, kind.name());
        return s.withDescription(message).asRuntimeException(trailers);
    }

    /** RESOURCE_EXHAUSTED for a limit that passes (the queue full, too many witness bytes arriving): worth placing elsewhere. */
    private static StatusRuntimeException busy(String message) {
        io.grpc.Metadata trailers = new io.grpc.Metadata();
        trailers.put(io.cuzk.api.Trailers.PLACE_ELSEWHERE, "busy"); // a passing limit: worth placing elsewhere
        return io.grpc.Status.RESOURCE_EXHAUSTED.withDescription(message).asRuntimeException(trailers);
    }

    private void requireAccepting() {
        if (draining) {
            throw status(io.grpc.Status.UNAVAILABLE, "the daemon is shutting down and accepts no new jobs");
        }
    }

    /** Why the spec's partition format is not one this daemon reads; null when it is. */
    static String formatProblem(JobSpec spec) {
        return spec.getFormat() == io.cuzk.api.v1.PartitionFormat.UNRECOGNIZED ? "unknown partition format " + spec.getFormatValue()
                + " (PARTITION_FORMAT_WTNS is 0, PARTITION_FORMAT_INPUT_JSON 1)" : null;
    }

    private void checkSpec(JobSpec spec, int witnesses) {
        if (spec.getKey().isEmpty()) {
            throw status(io.grpc.Status.INVALID_ARGUMENT, "the job names no key");
        }
        if (formatProblem(spec) != null) {
            throw status(io.grpc.Status.INVALID_ARGUMENT, formatProblem(spec));
        }
        if (witnesses == 0) {
            throw status(io.grpc.Status.INVALID_ARGUMENT, "the job has no witness");
        }
        if (spec.getPartitions() != 0 && spec.getPartitions() != witnesses) {
            throw status(io.grpc.Status.INVALID_ARGUMENT, "the job declares " + spec.getPartitions() + " partitions but carries "
                    + witnesses + " witnesses");
        }
        if (spec.getClientJobId().length() > MAX_CLIENT_ID) {
            throw status(io.grpc.Status.INVALID_ARGUMENT, "the client job id is longer than " + MAX_CLIENT_ID + " characters");
        }
    }

    static Priority priority(io.cuzk.api.v1.Priority p) {
        return switch (p) {
            case PRIORITY_LOW -> Priority.LOW;
            case PRIORITY_HIGH -> Priority.HIGH;
            case PRIORITY_CRITICAL -> Priority.CRITICAL;
            default -> Priority.NORMAL;
        };
    }

    /** A job accepted now, or the one an earlier submission of the same client job id made. */
    record Accepted(ServerJob job, boolean existing) {
        SubmitReply reply() {
            return SubmitReply.newBuilder().setJobId(job.id).setExisting(existing).build();
        }
    }

    /** Submissions past the draining check and not yet in {@link #jobs}: the drain waits for them. */
    int accepting() {
        return inAccept.get();
    }

    /** Accepts a job, or answers with the job its client id names; never proves one id twice. */
    private Accepted accept(JobSpec spec, List<ByteString> witnesses) {
        inAccept.incrementAndGet(); // before the check: a drain that sets draining after it waits for this
        try {
            requireAccepting();
            checkSpec(spec, witnesses.size());
            String clientId = spec.getClientJobId();
            if (clientId.isEmpty()) {
                return new Accepted(create(spec, witnesses), false);
            }
            CompletableFuture<ServerJob> mine = new CompletableFuture<>();
            CompletableFuture<ServerJob> first;
            while ((first = byClientId.putIfAbsent(clientId, mine)) != null) {
                ServerJob j;
                try {
                    j = first.join(); // the first submission's job, once it is made (or refused: then it freed the id)
                } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException refused) {
                    continue;
                }
                KeyDirectory.Entry named = keys.find(spec.getKey()); // the same key may be named by file name or hash
                if (named == null || !named.name.equals(j.key) || j.partitions != witnesses.size()) {
                    throw status(io.grpc.Status.ALREADY_EXISTS, "client job id " + clientId + " names job " + j.id + " of key " + j.key
                            + " with " + j.partitions + " partitions, not this one");
                }
                return new Accepted(j, true);
            }
            try {
                ServerJob j = create(spec, witnesses);
                mine.complete(j);
                return new Accepted(j, false);
            } catch (Throwable e) { // an Error too: whoever waits on this id must not wait forever
                byClientId.remove(clientId, mine); // a refused submission leaves the id free
                mine.completeExceptionally(e);
                throw e;
            }
        } finally {
            inAccept.decrementAndGet();
        }
    }

    private ServerJob create(JobSpec spec, List<ByteString> witnessBytes) {
        KeyDirectory.Entry entry = keys.find(spec.getKey());
        if (entry == null) {
            throw status(io.grpc.Status.NOT_FOUND, "no key named " + spec.getKey() + " in the daemon's key folder (ListKeys lists them)");
        }
        int n = witnessBytes.size();
        long queued = held.add(n);
        boolean accepted = false;
        Arena arena = Arena.ofShared();
        List<Witness> witnesses = new ArrayList<>(n);
        try {
            if (queued > limits.maxQueuedPartitions()) {
                throw busy("the daemon's queue is full: " + (queued - n) + " partitions wait and"
                        + " the limit is " + limits.maxQueuedPartitions());
            }
            ProvingKey key;
            try {
                key = entry.key();
            } catch (IOException | RuntimeException e) {
                throw status(io.grpc.Status.FAILED_PRECONDITION, "the daemon cannot read key " + entry.name + ": " + e.getMessage());
            }
            boolean inputs = spec.getFormat() == io.cuzk.api.v1.PartitionFormat.PARTITION_FORMAT_INPUT_JSON;
            if (inputs) {
                try {
                    entry.requireCircuit(); // a key that cannot take inputs says so first
                } catch (IllegalStateException e) {
                    throw status(io.grpc.Status.FAILED_PRECONDITION, e.getMessage());
                }
                // the limit on a job's witnesses holds for those the daemon calculates too: known
                // before any is, from the key's shape (a few hundred bytes of input can make MiBs)
                long each = io.cuzk.witness.WitnessCalculator.wtnsBytes(32, entry.shape.nVars()); // a scalar of either curve: 32 bytes
                if (each * n > limits.maxWitnessBytes()) {
                    throw status(io.grpc.Status.RESOURCE_EXHAUSTED, "the job's " + n + " witnesses, calculated from its inputs, would take "
                            + each * n + " bytes (" + each + " each): more than the daemon's limit of " + limits.maxWitnessBytes() + " bytes");
                }
            }
            for (int i = 0; i < n; i++) {
                MemorySegment seg;
                if (inputs) { // the witness of circom's input.json, with the key's circuit
                    requireStillWanted(i);
                    byte[] calculated;
                    try {
                        calculated = entry.witness(witnessBytes.get(i).toByteArray());
                    } catch (java.util.concurrent.CancellationException e) { // the calculating thread interrupted: the daemon stopping
                        // (UNAVAILABLE, as for a submission the stopping engine refuses: the client places the job elsewhere)
                        throw status(io.grpc.Status.UNAVAILABLE, "input of partition " + i + ": " + e.getMessage() + " (the daemon is stopping)");
                    } catch (IllegalStateException e) { // the daemon's circuit, not the input
                        throw status(io.grpc.Status.FAILED_PRECONDITION, e.getMessage());
                    } catch (RuntimeException e) {
                        throw status(io.grpc.Status.INVALID_ARGUMENT, "input of partition " + i + ": " + e.getMessage());
                    }
                    seg = arena.allocate(Math.max(1, calculated.length), 8);
                    MemorySegment.copy(calculated, 0, seg, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, calculated.length);
                    seg = seg.asSlice(0, calculated.length);
                } else {
                    ByteString b = witnessBytes.get(i);
                    seg = arena.allocate(Math.max(1, b.size()), 8);
                    b.copyTo(seg.asByteBuffer());
                    seg = seg.asSlice(0, b.size());
                }
                Witness w;
                try {
                    w = Witness.parse("witness of partition " + i, seg);
                } catch (RuntimeException e) {
                    throw status(io.grpc.Status.INVALID_ARGUMENT, e.getMessage());
                }
                witnesses.add(w);
                // named by the key's name: the daemon's paths are its own
                if (w.curve() != key.curve()) {
                    throw status(io.grpc.Status.INVALID_ARGUMENT, "witness of partition " + i + ": over " + w.curve().cliName()
                            + "'s field, but key " + entry.name + " is for " + key.curve().cliName());
                }
                if (w.size() != key.nVars()) {
                    throw status(io.grpc.Status.INVALID_ARGUMENT, "witness of partition " + i + ": " + w.size() + " values, but key "
                            + entry.name + " needs " + key.nVars());
                }
            }
            JobHandle h;
            try {
                h = engine.submit(Job.of(key, witnesses, priority(spec.getPriority())));
            } catch (BudgetExceededException e) {
                throw status(io.grpc.Status.RESOURCE_EXHAUSTED, e.getMessage());
            } catch (IllegalStateException e) {
                throw status(io.grpc.Status.UNAVAILABLE, "the daemon is shutting down: " + e.getMessage());
            }
            ServerJob job = new ServerJob(ids.incrementAndGet(), spec.getClientJobId(), entry.name, name, h, arena, witnesses);
            jobs.put(job.id, job);
            accepted = true;
            // built off the engine's threads: a finalizer completes the future and must not wait for JSON
            unreleased.incrementAndGet();
            h.future().whenCompleteAsync((proofs, error) -> {
                held.add(-n);
                job.ended(proofs, error);
            }, completions);
            // the witnesses live until the engine lets go of them: a cancelled job's partitions
            // on a device still read them after its future completed
            h.released().whenCompleteAsync((v, error) -> {
                try {
                    job.free();
                } finally {
                    unreleased.decrementAndGet();
                }
            }, completions);
            return job;
        } finally {
            if (!accepted) {
                held.add(-n);
                for (Witness w : witnesses) {
                    w.close();
                }
                arena.close();
            }
        }
    }

    /**
     * The receiving side of Submit and Run: the spec, then the witnesses in chunks, within the
     * daemon's limits; once the stream is complete and whole, hands spec and witnesses on. A
     * StatusRuntimeException from there ends the call with that status.
     */
    private final class Receiver implements StreamObserver<SubmitRequest> {
        private final StreamObserver<?> reply;
        private final java.util.function.BiConsumer<JobSpec, List<ByteString>> received;

        Receiver(StreamObserver<?> reply, java.util.function.BiConsumer<JobSpec, List<ByteString>> received) {
            this.reply = reply;
            this.received = received;
        }

        private JobSpec spec;
        private final List<ByteString> parts = new ArrayList<>();
        private long bytes;
        private boolean failed;

        private void fail(StatusRuntimeException e) {
            failed = true;
            release();
            reply.onError(e);
        }

        /** Gives this stream's share of the bytes being received back, once. */
        private void release() {
            parts.clear();
            receiving.addAndGet(-bytes);
            bytes = 0;
        }

        @Override
        public void onNext(SubmitRequest m) {
            if (failed) {
                return;
            }
            if (spec == null) {
                if (!m.hasSpec()) {
                    fail(status(io.grpc.Status.INVALID_ARGUMENT, "the first Submit message must hold the job's spec"));
                    return;
                }
                spec = m.getSpec();
                if (spec.getPartitions() == 0) {
                    fail(status(io.grpc.Status.INVALID_ARGUMENT, "the job's spec declares no partitions"));
                    return;
                }
                if (formatProblem(spec) != null) { // before any witness byte is taken in
                    fail(status(io.grpc.Status.INVALID_ARGUMENT, formatProblem(spec)));
                    return;
                }
                if (Integer.toUnsignedLong(spec.getPartitions()) > limits.maxQueuedPartitions()) {
                    fail(status(io.grpc.Status.RESOURCE_EXHAUSTED, "the job declares " + Integer.toUnsignedLong(spec.getPartitions())
                            + " partitions; the daemon queues at most " + limits.maxQueuedPartitions()));
                    return;
                }
                if (draining) {
                    fail(status(io.grpc.Status.UNAVAILABLE, "the daemon is shutting down and accepts no new jobs"));
                    return;
                }
            } else if (m.hasSpec()) {
                fail(status(io.grpc.Status.INVALID_ARGUMENT, "a Submit stream holds one spec, in its first message"));
                return;
            }
            for (WitnessChunk c : m.getChunksList()) {
                long p = Integer.toUnsignedLong(c.getPartition());
                if (p >= Integer.toUnsignedLong(spec.getPartitions()) || p < parts.size() - 1) {
                    fail(status(io.grpc.Status.INVALID_ARGUMENT, "a witness chunk for partition " + p + " after partition "
                            + (parts.size() - 1) + " of " + spec.getPartitions() + " (chunks come in partition order)"));
                    return;
                }
                if (p > parts.size()) {
                    fail(status(io.grpc.Status.INVALID_ARGUMENT, "witness chunks skip partition " + parts.size()));
                    return;
                }
                int n = c.getData().size();
                bytes += n; // counted in both at once: release() gives back exactly what was taken
                long all = receiving.addAndGet(n);
                if (bytes > limits.maxWitnessBytes()) {
                    fail(status(io.grpc.Status.RESOURCE_EXHAUSTED, "the job's witnesses exceed the daemon's limit of "
                            + limits.maxWitnessBytes() + " bytes"));
                    return;
                }
                // all Submit streams together: what the daemon holds of witnesses not yet accepted
                if (all > limits.maxReceivingBytes()) {
                    fail(busy("the daemon is receiving more witness bytes than its limit of "
                            + limits.maxReceivingBytes() + " over all submissions; try again shortly"));
                    return;
                }
                if (p == parts.size()) {
                    parts.add(c.getData());
                } else {
                    parts.set((int) p, parts.get((int) p).concat(c.getData()));
                }
            }
        }

        @Override
        public void onError(Throwable t) {
            if (!failed) {
                failed = true;
                release(); // the client went away: nothing was accepted
            }
        }

        @Override
        public void onCompleted() {
            if (failed) {
                return;
            }
            try {
                complete();
            } finally {
                release(); // accepted (the bytes are in native memory now) or refused
            }
        }

        private void complete() {
            if (spec == null) {
                reply.onError(status(io.grpc.Status.INVALID_ARGUMENT, "an empty Submit stream"));
                return;
            }
            if (parts.size() != spec.getPartitions()) {
                reply.onError(status(io.grpc.Status.INVALID_ARGUMENT, "the job declares " + spec.getPartitions()
                        + " partitions but the stream carried witnesses for " + parts.size()));
                return;
            }
            try {
                List<ByteString> all = List.copyOf(parts);
                parts.clear();
                received.accept(spec, all);
            } catch (StatusRuntimeException e) {
                reply.onError(e);
            }
        }
    }

    @Override
    public StreamObserver<SubmitRequest> submit(StreamObserver<SubmitReply> reply) {
        ServerCallStreamObserver<SubmitReply> call = (ServerCallStreamObserver<SubmitReply>) reply;
        return new Receiver(reply, (spec, witnesses) -> {
            Accepted a = accept(spec, witnesses);
            if (call.isCancelled() && !a.existing() && spec.getClientJobId().isEmpty()) {
                // the client left before it could learn the job's id: nobody could ever await or cancel it
                a.job().cancelReason = "the Submit call was cancelled before it returned";
                a.job().handle.cancel();
                return;
            }
            reply.onNext(a.reply());
            reply.onCompleted();
        });
    }

    @Override
    public StreamObserver<SubmitRequest> run(StreamObserver<JobEvent> reply) {
        ServerCallStreamObserver<JobEvent> call = (ServerCallStreamObserver<JobEvent>) reply;
        java.util.concurrent.atomic.AtomicReference<ServerJob> followed = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean gone = new java.util.concurrent.atomic.AtomicBoolean();
        // the caller gone (cancelled, its deadline passed, its connection lost): this call no
        // longer follows the job; a job it made that nobody else follows goes (abandon)
        call.setOnCancelHandler(() -> {
            gone.set(true);
            ServerJob j = followed.get();
            if (j != null) {
                abandon(j);
            }
        });
        return new Receiver(reply, (spec, witnesses) -> {
            Accepted a = accept(spec, witnesses);
            ServerJob j = a.job();
            if (!a.existing()) {
                j.createdByRun = true;
            }
            ServerJob.Watcher w = new ServerJob.Watcher(call, j);
            followed.set(j);
            if (gone.get()) { // cancelled while the job was being accepted
                abandon(j);
                return;
            }
            j.watchers.add(w);
            w.offer(j.event());
            if (j.end() != null) {
                w.offer(j.end());
            }
        });
    }

    /**
     * A Run call's caller left: its watcher goes. A job a Run call made, that nobody follows any
     * more (no other Run, no Await), is cancelled and its client job id freed on this daemon; one
     * that others still follow (a client that came back with the same id, an Await), or that a
     * Submit made (its client may Await it later), runs on.
     */
    private void abandon(ServerJob j) {
        for (ServerJob.Watcher w : j.watchers) {
            if (w.out.isCancelled() || w.closed()) {
                w.close();
                j.watchers.remove(w);
            }
        }
        if (!j.createdByRun || !j.watchers.isEmpty() || j.end() != null) {
            return;
        }
        forgetClientId(j); // first: once the job shows as cancelled, its id is free
        j.cancelReason = "the Run call that followed it was cancelled, its deadline passed or its client went away";
        j.handle.cancel();
    }

    /** Frees the job's client job id, if it still names this job: a later submission of it makes a new job. */
    private void forgetClientId(ServerJob j) {
        if (!j.clientJobId.isEmpty()) {
            CompletableFuture<ServerJob> f = byClientId.get(j.clientJobId);
            if (f != null && f.isDone() && !f.isCompletedExceptionally() && f.join() == j) {
                byClientId.remove(j.clientJobId, f);
            }
        }
    }

    @Override
    public void prove(ProveRequest request, StreamObserver<JobResult> reply) {
        ServerCallStreamObserver<JobResult> call = (ServerCallStreamObserver<JobResult>) reply;
        ServerJob job;
        try {
            long total = 0;
            for (ByteString w : request.getWitnessesList()) {
                total += w.size();
            }
            if (total > limits.maxWitnessBytes()) {
                throw status(io.grpc.Status.RESOURCE_EXHAUSTED, "the job's witnesses exceed the daemon's limit of "
                        + limits.maxWitnessBytes() + " bytes");
            }
            JobSpec spec = request.getSpec().toBuilder().clearClientJobId().build();
            job = accept(spec, request.getWitnessesList()).job();
        } catch (StatusRuntimeException e) {
            reply.onError(e);
            return;
        }
        // the caller gone (cancelled, or past its deadline): the job goes too, and its memory
        call.setOnCancelHandler(() -> {
            job.cancelReason = "the Prove call was cancelled or its deadline passed";
            job.handle.cancel();
        });
        job.done.thenAccept(end -> {
            if (call.isCancelled()) {
                return;
            }
            switch (end.getState()) {
                case JOB_STATE_DONE -> {
                    reply.onNext(end.getResult());
                    reply.onCompleted();
                }
                case JOB_STATE_CANCELLED -> reply.onError(ended(io.grpc.Status.CANCELLED, end.getReason(), job.id, end.getFailure()));
                default -> reply.onError(ended(io.grpc.Status.ABORTED, "job " + job.id + " failed: " + end.getReason(), job.id,
                        end.getFailure()));
            }
        });
    }

    // ---- following, cancelling, watching --------------------------------------------------------

    /** The job of that id, or null after answering the call NOT_FOUND. */
    private ServerJob job(long id, StreamObserver<?> reply) {
        ServerJob j = jobs.get(id);
        if (j == null) {
            reply.onError(status(io.grpc.Status.NOT_FOUND, "no job " + id + " (finished jobs are kept for "
                    + limits.resultTtl().toSeconds() + " s)"));
        }
        return j;
    }

    @Override
    public void await(AwaitRequest request, StreamObserver<JobEvent> reply) {
        ServerJob j = job(request.getJobId(), reply);
        if (j == null) {
            return;
        }
        ServerCallStreamObserver<JobEvent> call = (ServerCallStreamObserver<JobEvent>) reply;
        ServerJob.Watcher w = new ServerJob.Watcher(call);
        call.setOnCancelHandler(() -> {
            w.close();
            j.watchers.remove(w);
        });
        j.watchers.add(w);
        w.offer(j.event()); // now, and again from ticks until the end (which ended() sends too)
        if (j.end() != null) {
            w.offer(j.end());
        }
    }

    /** Sends progress to every watcher whose job moved on; drops finished jobs past their result time. */
    void tick() {
        long now = System.nanoTime();
        for (ServerJob j : jobs.values()) {
            JobEvent end = j.end();
            if (end != null) {
                for (ServerJob.Watcher w : j.watchers) {
                    w.offer(end);
                }
                j.watchers.removeIf(ServerJob.Watcher::closed);
                if (now - j.endedAtNanos > limits.resultTtl().toNanos() && j.watchers.isEmpty()) {
                    // first the id, then the job: a resubmission in between makes a new job instead of naming a gone one
                    forgetClientId(j);
                    jobs.remove(j.id);
                }
                continue;
            }
            if (!j.watchers.isEmpty()) {
                JobEvent e = j.event();
                for (ServerJob.Watcher w : j.watchers) {
                    w.offer(e);
                }
                j.watchers.removeIf(ServerJob.Watcher::closed);
            }
        }
    }

    @Override
    public void cancel(CancelRequest request, StreamObserver<CancelReply> reply) {
        ServerJob j = job(request.getJobId(), reply);
        if (j == null) {
            return;
        }
        boolean cancelled = j.handle.cancel();
        JobState state = JobState.JOB_STATE_CANCELLED;
        if (!cancelled) {
            try {
                state = j.done.get(10, java.util.concurrent.TimeUnit.SECONDS).getState(); // it ended: how
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                state = j.event().getState();
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                state = j.event().getState();
            }
        }
        reply.onNext(CancelReply.newBuilder().setCancelled(cancelled).setState(state).build());
        reply.onCompleted();
    }

    @Override
    public void getStatus(StatusRequest request, StreamObserver<Status> reply) {
        reply.onNext(status());
        reply.onCompleted();
    }

    Status status() {
        EngineStatus s = engine.status();
        Status.Builder b = Status.newBuilder();
        for (EngineStatus.Device d : s.devices()) {
            b.addDevices(DeviceStatus.newBuilder().setName(d.name()).setPartitions(d.partitions()).setUtilization(d.utilization())
                    .setRecentUtilization(d.recentUtilization()).setGapsMs(percentiles(d.gapsMs())).setLongestChain(d.longestChain())
                    .setBusySeconds(d.busySeconds()));
        }
        for (Map.Entry<PartitionState, Integer> q : s.queues().entrySet()) {
            b.putPartitions(q.getKey().name().toLowerCase(java.util.Locale.ROOT), q.getValue());
        }
        EngineStatus.Memory m = s.memory();
        b.setMemory(MemoryStatus.newBuilder().setBudgetBytes(m.budgetCapacity()).setBudgetUsedBytes(m.budgetUsed())
                .setBudgetPeakBytes(m.budgetPeak()).setPoolBytes(m.poolAllocated()).setPoolInUseBytes(m.poolInUse())
                .setPoolIdleBytes(m.poolIdle()).setPoolPeakBytes(m.poolPeak()).setPoolReturnedBytes(m.poolReturnedBytes())
                .setPinnedBytes(m.pinned()));
        b.addAllResidentKeys(keys.resident());
        EngineStatus.Counters c = s.counters();
        b.setJobsSubmitted(c.jobsSubmitted()).setJobsDone(c.jobsDone()).setJobsFailed(c.jobsFailed())
                .setJobsCancelled(c.jobsCancelled()).setPartitionsDone(c.partitionsDone());
        long now = System.nanoTime();
        LoadReports l = load;
        if (l != null) {
            b.setLoad(l.last().toProto());
        }
        b.setName(name).setDraining(draining).setUptimeSeconds((now - startedNanos) / 1e9).setVersion(CuzkServer.version());
        // the running jobs, oldest first, then the latest ended ones: 100 in all
        List<ServerJob> running = new ArrayList<>(), ended = new ArrayList<>();
        for (ServerJob j : jobs.values()) {
            (j.end() == null ? running : ended).add(j);
        }
        running.sort(Comparator.comparingLong(j -> j.id));
        ended.sort(Comparator.comparingLong((ServerJob j) -> j.id).reversed());
        for (ServerJob j : running.subList(0, Math.min(running.size(), STATUS_JOBS))) {
            b.addJobs(j.summary(now));
        }
        for (ServerJob j : ended.subList(0, Math.min(ended.size(), STATUS_JOBS - b.getJobsCount()))) {
            b.addJobs(j.summary(now));
        }
        return b.build();
    }

    private static Percentiles percentiles(EngineStatus.Percentiles p) {
        return Percentiles.newBuilder().setP50(p.p50()).setP99(p.p99()).setMax(p.max()).setCount(p.count()).build();
    }

    @Override
    public void listKeys(ListKeysRequest request, StreamObserver<ListKeysReply> reply) {
        reply.onNext(ListKeysReply.newBuilder().addAllKeys(keys.list()).build());
        reply.onCompleted();
    }
}
