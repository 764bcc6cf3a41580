package io.cuzk.api;

import com.google.protobuf.ByteString;
import io.cuzk.api.v1.AwaitRequest;
import io.cuzk.api.v1.CancelReply;
import io.cuzk.api.v1.CancelRequest;
import io.cuzk.api.v1.JobEvent;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.JobSpec;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.KeyInfo;
import io.cuzk.api.v1.ListKeysRequest;
import io.cuzk.api.v1.Priority;
import io.cuzk.api.v1.ProveRequest;
import io.cuzk.api.v1.ProverGrpc;
import io.cuzk.api.v1.Status;
import io.cuzk.api.v1.StatusRequest;
import io.cuzk.api.v1.SubmitReply;
import io.cuzk.api.v1.SubmitRequest;
import io.cuzk.api.v1.WitnessChunk;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client of the cuzk proving daemon ({@code bin/cuzk serve}): blocking calls, and asynchronous
 * ones that return {@link CompletableFuture}s. Thread-safe; one client (one HTTP/2 connection) is
 * meant to be shared by many threads. Failures are gRPC's {@link io.grpc.StatusRuntimeException}
 * (NOT_FOUND for an unknown key, INVALID_ARGUMENT for a bad witness or input, FAILED_PRECONDITION
 * for inputs to a key without a usable circuit, RESOURCE_EXHAUSTED over a limit, UNAVAILABLE while
 * the daemon drains or is gone, CANCELLED for a call cancelled or interrupted), and
 * {@link JobFailedException} for a job that failed or was cancelled on the daemon.
 *
 * <pre>{@code
 * try (CuzkClient c = CuzkClient.builder("127.0.0.1:7878").build()) {
 *     JobResult r = c.prove("circuit", List.of(Files.readAllBytes(wtns)), Priority.PRIORITY_NORMAL, Duration.ofMinutes(5));
 *     Files.writeString(proofJson, r.getProofs(0).getProofJson());
 * }
 * }</pre>
 */
public final class CuzkClient implements AutoCloseable {
    /**
     * Witness bytes per Submit message: with protobuf's framing, a message stays under 1 MiB, the
     * smallest limit a daemon may set (and well under gRPC's default 4 MiB).
     */
    static final int CHUNK_BYTES = (1 << 20) - (64 << 10);
    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    /** The description of a call that follows a job (Run, Await, Prove) ended by {@link #close}. */
    static final String CLOSED = "the client was closed";

    private final ManagedChannel channel;
    private final ProverGrpc.ProverBlockingStub blocking;
    private final ProverGrpc.ProverStub async;
    private final Failover failover;
    /** The calls in flight that follow a job (Run, Await, Prove): they last as long as their jobs, so close ends them. */
    private final java.util.Set<ClientCall<?, ?>> following = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    private CuzkClient(ManagedChannel channel, String token, Failover failover) {
        this.channel = channel;
        this.failover = failover;
        Channel c = io.grpc.ClientInterceptors.intercept(channel, new Following());
        if (token != null) {
            c = io.grpc.ClientInterceptors.intercept(c, bearer(token));
        }
        this.blocking = ProverGrpc.newBlockingStub(c);
        this.async = ProverGrpc.newStub(c);
    }

    /** Keeps the calls that follow a job in {@link #following} while they are open; one started after close is cancelled. */
    private final class Following implements ClientInterceptor {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            ClientCall<Q, R> call = next.newCall(method, options);
            if (!method.equals(ProverGrpc.getRunMethod()) && !method.equals(ProverGrpc.getAwaitMethod())
                    && !method.equals(ProverGrpc.getProveMethod())) {
                return call;
            }
            return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
                @Override
                public void start(Listener<R> listener, Metadata headers) {
                    ClientCall<Q, R> self = this;
                    following.add(self);
                    try {
                        super.start(new io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                            @Override
                            public void onClose(io.grpc.Status status, Metadata trailers) {
                                following.remove(self);
                                super.onClose(status, trailers);
                            }
                        }, headers);
                    } catch (RuntimeException | Error e) { // never started: nothing to end at close
                        following.remove(self);
                        throw e;
                    }
                    if (closing) { // close ran between the channel's check and this call's start
                        self.cancel(CLOSED, null);
                    }
                }
            };
        }
    }

    /**
     * A client of the daemon at target: "host:port" for one daemon; "host1:port,host2:port" or
     * "dns:///name:port" (every address the name resolves to, e.g. a Kubernetes headless Service)
     * for several, balanced by their reported load ({@link Builder#balanced}). Plaintext unless
     * {@link Builder#tls} is set.
     */
    public static Builder builder(String target) {
        return new Builder(target);
    }

    /** Whether a target names several daemons (a list, or a dns:/// name): balanced by default. */
    public static boolean namesSeveral(String target) {
        return Balancing.several(target);
    }

    /**
     * The daemons a fixed list names, each as "host:port" (IPv6 hosts in brackets); any other
     * target (one daemon, a dns:/// name) as itself. Throws IllegalArgumentException naming a bad entry.
     */
    public static List<String> listedDaemons(String target) {
        if (!target.contains(",")) {
            return List.of(target);
        }
        return Balancing.parse(target).stream().map(Balancing.Daemon::authority).toList();
    }

    /** A client over a channel the caller built (in-process tests, custom transports); closing it shuts the channel down. */
    public static CuzkClient of(ManagedChannel channel, String token) {
        return new CuzkClient(Objects.requireNonNull(channel, "channel"), token, Failover.DEFAULT);
    }

    /** {@link #of(ManagedChannel, String)} with {@link Builder#failover}'s settings. */
    public static CuzkClient of(ManagedChannel channel, String token, int maxAttempts, Duration firstBackoff) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        return new CuzkClient(Objects.requireNonNull(channel, "channel"), token,
                new Failover(maxAttempts, Objects.requireNonNull(firstBackoff, "firstBackoff")));
    }

    public static final class Builder {
        private final String target;
        private String token;
        private Path caCert;
        private int maxInboundBytes = 64 << 20;
        private Boolean balanced;
        private Failover failover = Failover.DEFAULT;

        private Builder(String target) {
            this.target = Objects.requireNonNull(target, "target");
        }

        /** The bearer token sent with every call (the daemon's --token-file). */
        public Builder token(String token) {
            this.token = token == null || token.isBlank() ? null : token.strip();
            return this;
        }

        /** Reads the bearer token from a file (its first line, trimmed). */
        public Builder tokenFile(Path file) throws IOException {
            return token(Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse(""));
        }

        /** TLS, trusting the certificates in caCert (PEM); the daemon's certificate must name the target's host. */
        public Builder tls(Path caCert) {
            this.caCert = caCert;
            return this;
        }

        /** The largest reply accepted (a job's proofs); 64 MiB by default. */
        public Builder maxInboundBytes(int bytes) {
            this.maxInboundBytes = bytes;
            return this;
        }

        /**
         * Spreads calls over every daemon the target names with gRPC's weighted_round_robin policy,
         * weighted by the load each daemon reports (ORCA), skipping daemons whose health is not
         * SERVING. On by default for a list or a dns:/// target; for one host:port, calls go to the
         * first address that answers.
         */
        public Builder balanced(boolean v) {
            this.balanced = v;
            return this;
        }

        /**
         * How {@link #run} places a job again when its daemon is unavailable (gone, or shutting
         * down): at most maxAttempts calls in all (1 = never again), waiting firstBackoff before
         * the second, doubling up to 5 s. By default 6 attempts from 0.25 s.
         */
        public Builder failover(int maxAttempts, Duration firstBackoff) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
            }
            this.failover = new Failover(maxAttempts, Objects.requireNonNull(firstBackoff, "firstBackoff"));
            return this;
        }

        public CuzkClient build() throws IOException {
            ChannelCredentials creds = caCert == null ? InsecureChannelCredentials.create()
                    : TlsChannelCredentials.newBuilder().trustManager(caCert.toFile()).build();
            boolean several = Balancing.several(target);
            boolean balance = balanced != null ? balanced : several;
            if (several || balance) {
                Balancing.register();
            }
            String t = target.contains(",") ? Balancing.listTarget(target) : target;
            // pings on a call's connection every 20 s: a daemon whose host went down or whose network
            // was cut (no reset comes) is noticed within half a minute, and its jobs placed again
            io.grpc.ManagedChannelBuilder<?> b = Grpc.newChannelBuilder(t, creds).maxInboundMessageSize(maxInboundBytes)
                    .keepAliveTime(20, TimeUnit.SECONDS).keepAliveTimeout(10, TimeUnit.SECONDS);
            if (balance) {
                b.defaultServiceConfig(Balancing.serviceConfig()).disableServiceConfigLookUp();
            }
            return new CuzkClient(b.build(), token, failover);
        }
    }

    /** How {@link #run} retries: attempts in all, the first wait (doubling up to 5 s). */
    record Failover(int maxAttempts, Duration firstBackoff) {
        static final Failover DEFAULT = new Failover(6, Duration.ofMillis(250));

        long backoffNanos(int attemptsMade) {
            long cap = TimeUnit.SECONDS.toNanos(5), b = Math.max(1, firstBackoff.toNanos());
            for (int i = 1; i < attemptsMade && b < cap; i++) {
                b *= 2;
            }
            return Math.min(b, cap);
        }
    }

    /** A job {@link #run} proved: its result, the daemon that proved it, and the calls it took. */
    public record Proved(JobResult result, String daemon, int attempts) {}

    /** A submitted job: its id on the daemon, and whether the client job id named an earlier submission. */
    public record Submitted(long jobId, boolean existing) {}

    /** Thrown by await and prove for a job that ended FAILED or CANCELLED on the daemon. */
    public static final class JobFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long jobId;
        private final JobState state;
        private final io.cuzk.api.v1.FailureKind failure;

        public JobFailedException(long jobId, JobState state, String reason) {
            this(jobId, state, reason, io.cuzk.api.v1.FailureKind.FAILURE_KIND_UNSPECIFIED);
        }

        public JobFailedException(long jobId, JobState state, String reason, io.cuzk.api.v1.FailureKind failure) {
            super("job " + jobId + " " + (state == JobState.JOB_STATE_CANCELLED ? "was cancelled" : "failed") + ": " + reason);
            this.jobId = jobId;
            this.state = state;
            this.failure = failure;
        }

        /** The kind of failure the daemon reported: FAILURE_KIND_SELF_CHECK for a proof its self-check refused. */
        public io.cuzk.api.v1.FailureKind failure() {
            return failure;
        }

        public long jobId() {
            return jobId;
        }

        public JobState state() {
            return state;
        }
    }

    static JobSpec spec(String key, int partitions, Priority priority, String clientJobId) {
        JobSpec.Builder b = JobSpec.newBuilder().setKey(Objects.requireNonNull(key, "key")).setPartitions(partitions)
                .setPriority(priority == null ? Priority.PRIORITY_NORMAL : priority);
        if (clientJobId != null) {
            b.setClientJobId(clientJobId);
        }
        return b.build();
    }

    /**
     * Submits a job of one partition per witness (.wtns bytes), streaming the witnesses in chunks
     * of 1 MiB. With a clientJobId, a second submission of that id returns the first job. An
     * interrupt of the waiting thread cancels the call (a job the daemon made without a client job
     * id is then cancelled too: nobody could follow it) and throws CANCELLED, the interrupt status
     * kept.
     */
    public Submitted submit(String key, List<byte[]> witnesses, Priority priority, String clientJobId) {
        return awaitCancelling(submitAsync(key, witnesses, priority, clientJobId), "submitting the job");
    }

    /**
     * {@link #submit} without blocking; the future fails with the call's StatusRuntimeException,
     * and cancelling it cancels the call.
     */
    public CompletableFuture<Submitted> submitAsync(String key, List<byte[]> witnesses, Priority priority, String clientJobId) {
        return submitAsync(spec(key, witnesses.size(), priority, clientJobId), witnesses);
    }

    /**
     * Submits a job of one partition per circom input.json: the daemon calculates each witness
     * with the key's circuit (NAME.wasm next to the key in its folder), then proves. A witness
     * that cannot be calculated (a missing or extra signal, a failed assertion) refuses the job
     * with INVALID_ARGUMENT naming the partition (and the signal, where one is to blame); a key
     * without a usable circuit is FAILED_PRECONDITION, an unknown key NOT_FOUND. The call lasts as
     * long as the daemon calculates the witnesses; an interrupt cancels it, as for {@link #submit},
     * and the daemon stops calculating.
     */
    public Submitted submitInputs(String key, List<String> inputJsons, Priority priority, String clientJobId) {
        return awaitCancelling(submitAsync(inputsSpec(key, inputJsons.size(), priority, clientJobId), utf8(inputJsons)),
                "submitting the job");
    }

    /**
     * Streams a job's spec and witnesses into a Submit or Run call: the spec first, then up to
     * CHUNK_BYTES of witness chunks per message in partition order, built and sent only as fast
     * as the transport takes them (the bytes waiting in this client's memory stay one message, not
     * the whole job).
     */
    private static final class Sender {
        private final JobSpec spec;
        private final List<byte[]> witnesses;
        private final io.grpc.stub.ClientCallStreamObserver<SubmitRequest> out;
        private final java.util.function.Consumer<Throwable> failed;
        private int partition;
        private int offset;
        private boolean specSent;
        private boolean finished;

        Sender(JobSpec spec, List<byte[]> witnesses, io.grpc.stub.ClientCallStreamObserver<SubmitRequest> out,
                java.util.function.Consumer<Throwable> failed) {
            this.spec = spec;
            this.witnesses = witnesses;
            this.out = out;
            this.failed = failed;
            out.setOnReadyHandler(this::send);
        }

        private synchronized void send() {
            try {
                while (!finished && out.isReady()) {
                    SubmitRequest m = next();
                    if (m == null) {
                        finished = true;
                        out.onCompleted();
                    } else {
                        out.onNext(m);
                    }
                }
            } catch (RuntimeException e) {
                finished = true;
                out.onError(e);
                failed.accept(e);
            }
        }

        /** The next message; null at the end. */
        private SubmitRequest next() {
            if (specSent && partition >= witnesses.size()) {
                return null;
            }
            SubmitRequest.Builder msg = SubmitRequest.newBuilder();
            if (!specSent) {
                msg.setSpec(spec);
                specSent = true;
            }
            int inMessage = 0;
            while (inMessage < CHUNK_BYTES && partition < witnesses.size()) {
                byte[] w = witnesses.get(partition);
                int n = Math.min(w.length - offset, CHUNK_BYTES - inMessage);
                msg.addChunks(WitnessChunk.newBuilder().setPartition(partition).setData(ByteString.copyFrom(w, offset, n)));
                offset += n;
                inMessage += n;
                if (offset == w.length) {
                    partition++;
                    offset = 0;
                }
            }
            return msg.build();
        }
    }

    private CompletableFuture<Submitted> submitAsync(JobSpec spec, List<byte[]> witnesses) {
        CompletableFuture<Submitted> done = new CompletableFuture<>();
        async.submit(new io.grpc.stub.ClientResponseObserver<SubmitRequest, SubmitReply>() {
            @Override
            public void beforeStart(io.grpc.stub.ClientCallStreamObserver<SubmitRequest> requests) {
                done.whenComplete((r, e) -> {
                    if (done.isCancelled()) { // the caller gave up: so does the call (and the daemon's work for it)
                        requests.cancel("the caller cancelled the submission", null);
                    }
                });
                new Sender(spec, witnesses, requests, done::completeExceptionally);
            }

            @Override
            public void onNext(SubmitReply r) {
                done.complete(new Submitted(r.getJobId(), r.getExisting()));
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.completeExceptionally(new IllegalStateException("the daemon ended Submit without a reply"));
            }
        });
        return done;
    }

    /**
     * Proves a job of one partition per witness (.wtns bytes) on whichever daemon the channel
     * picks, following it there (one Run call: the witnesses in, the events out), and places it
     * again under the same client job id when its daemon becomes unavailable (killed, or shutting
     * down before it finished; none reachable at that moment) or refuses it for one of its own
     * limits (its queue full, its memory budget too small: RESOURCE_EXHAUSTED marked so by the
     * daemon), at most the builder's {@link Builder#failover attempts}, with growing waits. The
     * caller gets exactly one outcome: the proofs, {@link JobFailedException} when the job itself
     * failed (a bad witness fails everywhere: not retried), or a StatusRuntimeException
     * (UNAVAILABLE or RESOURCE_EXHAUSTED naming the attempts when no daemon could take it;
     * DEADLINE_EXCEEDED when the timeout passed). A null
     * clientJobId gets a random one. progress sees every event, each naming its daemon.
     */
    public Proved run(String key, List<byte[]> witnesses, Priority priority, String clientJobId, Duration timeout,
            java.util.function.Consumer<JobEvent> progress) {
        return awaitCancelling(runAsync(key, witnesses, priority, clientJobId, timeout, progress), "waiting for the job");
    }

    /**
     * A call's outcome, blocking: its StatusRuntimeException (or the job's exception) as the other
     * blocking calls throw it; an interrupt cancels the future, and with it the call, and throws
     * CANCELLED ("interrupted while " what), the interrupt status kept.
     */
    private static <T> T awaitCancelling(CompletableFuture<T> f, String what) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw io.grpc.Status.CANCELLED.withDescription("interrupted while " + what).asRuntimeException();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** {@link #run} without blocking; cancelling the future cancels the call, and with it the job on its daemon. */
    public CompletableFuture<Proved> runAsync(String key, List<byte[]> witnesses, Priority priority, String clientJobId, Duration timeout,
            java.util.function.Consumer<JobEvent> progress) {
        String id = clientJobId != null ? clientJobId : "cuzk-" + java.util.UUID.randomUUID();
        return place(spec(key, witnesses.size(), priority, id), List.copyOf(witnesses), timeout, progress);
    }

    /**
     * {@link #run} of a job of one partition per circom input.json instead of a witness: the
     * daemon calculates each witness with the key's circuit (as {@link #submitInputs}), with the
     * same placement, failover and outcomes; input that does not fit the circuit is
     * INVALID_ARGUMENT naming the partition and the signal (not retried), a key without a usable
     * circuit FAILED_PRECONDITION.
     */
    public Proved runInputs(String key, List<String> inputJsons, Priority priority, String clientJobId, Duration timeout,
            java.util.function.Consumer<JobEvent> progress) {
        return awaitCancelling(runInputsAsync(key, inputJsons, priority, clientJobId, timeout, progress), "waiting for the job");
    }

    /** {@link #runInputs} without blocking; cancelling the future cancels the call, and with it the job on its daemon. */
    public CompletableFuture<Proved> runInputsAsync(String key, List<String> inputJsons, Priority priority, String clientJobId,
            Duration timeout, java.util.function.Consumer<JobEvent> progress) {
        String id = clientJobId != null ? clientJobId : "cuzk-" + java.util.UUID.randomUUID();
        return place(inputsSpec(key, inputJsons.size(), priority, id), utf8(inputJsons), timeout, progress);
    }

    /** The spec of a job whose partitions are circom input.json texts. */
    private static JobSpec inputsSpec(String key, int partitions, Priority priority, String clientJobId) {
        return spec(key, partitions, priority, clientJobId).toBuilder().setFormat(io.cuzk.api.v1.PartitionFormat.PARTITION_FORMAT_INPUT_JSON)
                .build();
    }

    /**
     * input.json texts as the bytes a job carries (UTF-8). A text that UTF-8 cannot carry (a lone
     * surrogate, which String.getBytes would send as '?', naming another signal) is refused,
     * naming its partition and place; a null text is refused too.
     */
    static List<byte[]> utf8(List<String> texts) {
        Objects.requireNonNull(texts, "inputJsons");
        List<byte[]> out = new java.util.ArrayList<>(texts.size());
        java.nio.charset.CharsetEncoder strict = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        for (int p = 0; p < texts.size(); p++) {
            String t = texts.get(p);
            if (t == null) {
                throw new NullPointerException("the input.json of partition " + p + " is null");
            }
            java.nio.CharBuffer in = java.nio.CharBuffer.wrap(t);
            try {
                java.nio.ByteBuffer b = strict.reset().encode(in);
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                out.add(bytes);
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException("the input.json of partition " + p + " has a lone UTF-16 surrogate at character "
                        + in.position() + ": it cannot be sent as UTF-8");
            }
        }
        return out;
    }

    private CompletableFuture<Proved> place(JobSpec spec, List<byte[]> partitions, Duration timeout,
            java.util.function.Consumer<JobEvent> progress) {
        Placement p = new Placement(spec, partitions, System.nanoTime() + timeout.toNanos(), progress == null ? e -> { } : progress);
        attempt(p);
        return p.done;
    }

    /** The timer of every client's retries: one daemon thread that only starts calls (never blocks). */
    private static final class Retries {
        static final java.util.concurrent.ScheduledExecutorService SCHEDULER = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("cuzk-client-retries").factory());
    }

    /** One job's way through its attempts. */
    private static final class Placement {
        final JobSpec spec;
        final List<byte[]> witnesses;
        final long deadlineNanos;
        final java.util.function.Consumer<JobEvent> progress;
        final CompletableFuture<Proved> done = new CompletableFuture<>();
        int attempts;
        volatile io.grpc.stub.ClientCallStreamObserver<SubmitRequest> call;

        Placement(JobSpec spec, List<byte[]> witnesses, long deadlineNanos, java.util.function.Consumer<JobEvent> progress) {
            this.spec = spec;
            this.witnesses = witnesses;
            this.deadlineNanos = deadlineNanos;
            this.progress = progress;
            done.whenComplete((v, e) -> {
                io.grpc.stub.ClientCallStreamObserver<SubmitRequest> c = call;
                if (done.isCancelled() && c != null) {
                    c.cancel("the caller cancelled the job", null);
                }
            });
        }
    }

    /** A status's description and its cause's message ("io exception: Connection refused"). */
    private static String why(io.grpc.Status s) {
        String d = s.getDescription(), c = s.getCause() == null ? null : s.getCause().getMessage();
        return d == null ? String.valueOf(c) : c == null || d.contains(c) ? d : d + ": " + c;
    }

    private void attempt(Placement p) {
        long left = p.deadlineNanos - System.nanoTime();
        if (left <= 0) {
            p.done.completeExceptionally(io.grpc.Status.DEADLINE_EXCEEDED.withDescription("job " + p.spec.getClientJobId()
                    + " was not proved in time (" + p.attempts + " attempts)").asRuntimeException());
            return;
        }
        if (closing || channel.isShutdown()) {
            p.done.completeExceptionally(io.grpc.Status.CANCELLED.withDescription("job " + p.spec.getClientJobId() + ": " + CLOSED
                    + " before the job was placed" + (p.attempts == 0 ? "" : " again (" + p.attempts + " attempts made)")).asRuntimeException());
            return;
        }
        p.attempts++;
        async.withDeadlineAfter(left, TimeUnit.NANOSECONDS).run(new io.grpc.stub.ClientResponseObserver<SubmitRequest, JobEvent>() {
            @Override
            public void beforeStart(io.grpc.stub.ClientCallStreamObserver<SubmitRequest> requests) {
                p.call = requests;
                // a send refused because close cancelled the call says so, as onError would
                new Sender(p.spec, p.witnesses, requests, t -> p.done.completeExceptionally(closing ? closedInFlight(p, t) : t));
                if (p.done.isCancelled()) { // the caller cancelled while this attempt was being started
                    requests.cancel("the caller cancelled the job", null);
                }
            }

            @Override
            public void onNext(JobEvent e) {
                if (p.done.isDone()) {
                    return;
                }
                try {
                    p.progress.accept(e);
                } catch (RuntimeException ignored) {
                    // a caller's progress view must not lose the job
                }
                try {
                    JobResult r = outcome(e);
                    if (r != null) {
                        p.done.complete(new Proved(r, e.getDaemon(), p.attempts));
                    }
                } catch (JobFailedException x) {
                    p.done.completeExceptionally(x);
                }
            }

            @Override
            public void onError(Throwable t) {
                if (p.done.isDone()) {
                    return;
                }
                io.grpc.Status s = io.grpc.Status.fromThrowable(t);
                if (closing) { // ended by close (cancelled, or cut by the channel's shutdown): not the daemon's doing
                    p.done.completeExceptionally(closedInFlight(p, t));
                    return;
                }
                io.grpc.Metadata trailers = io.grpc.Status.trailersFromThrowable(t);
                boolean elsewhere = s.getCode() == io.grpc.Status.Code.RESOURCE_EXHAUSTED && trailers != null
                        && trailers.containsKey(Trailers.PLACE_ELSEWHERE); // a daemon's own limit: another may have room
                if (s.getCode() != io.grpc.Status.Code.UNAVAILABLE && !elsewhere) {
                    p.done.completeExceptionally(t);
                    return;
                }
                long wait = failover.backoffNanos(p.attempts);
                if (p.attempts >= failover.maxAttempts()) {
                    p.done.completeExceptionally(s.getCode().toStatus().withDescription("job " + p.spec.getClientJobId()
                            + " could not be placed on any daemon in " + p.attempts + " attempts; the last: "
                            + why(s)).withCause(t)
                            .asRuntimeException());
                    return;
                }
                if (System.nanoTime() + wait >= p.deadlineNanos) {
                    p.done.completeExceptionally(io.grpc.Status.DEADLINE_EXCEEDED.withDescription("job " + p.spec.getClientJobId()
                            + " was not placed before its timeout (" + p.attempts + " attempts; the last: " + why(s) + ")").withCause(t)
                            .asRuntimeException());
                    return;
                }
                // its daemon went away or is shutting down: the channel picks another (or the same
                // one once it is back), the same client job id, never a second result for the caller
                // on a thread of its own: the common pool's few workers may all be blocked by
                // callers (on a 2-core machine there is one), and a retry must not wait for them
                Retries.SCHEDULER.schedule(() -> {
                    try {
                        if (!p.done.isDone()) {
                            attempt(p);
                        }
                    } catch (RuntimeException | Error x) { // the caller must hear of it, not wait forever
                        p.done.completeExceptionally(x);
                    }
                }, wait, TimeUnit.NANOSECONDS);
            }

            @Override
            public void onCompleted() {
                if (!p.done.isDone()) {
                    p.done.completeExceptionally(new IllegalStateException("the daemon ended Run of job " + p.spec.getClientJobId()
                            + " before the job ended"));
                }
            }
        });
    }

    /** A Run ended by {@link #close}: CANCELLED, naming the job. */
    private static io.grpc.StatusRuntimeException closedInFlight(Placement p, Throwable t) {
        return io.grpc.Status.CANCELLED.withDescription("job " + p.spec.getClientJobId() + ": " + CLOSED
                + " while the job was in flight; its daemon cancels it unless another call follows it").withCause(t).asRuntimeException();
    }

    /** The job's events as they happen, ending with DONE, FAILED or CANCELLED. */
    public Iterator<JobEvent> events(long jobId) {
        return blocking.await(AwaitRequest.newBuilder().setJobId(jobId).build());
    }

    /** Waits for the job's proofs; throws JobFailedException if it failed or was cancelled. */
    public JobResult await(long jobId, Duration timeout) {
        return await(jobId, timeout, e -> { });
    }

    /**
     * {@link #await(long, Duration)}, giving progress every event on the way (state, partitions
     * done). What progress throws ends the wait (and the call) and reaches the caller as itself.
     */
    public JobResult await(long jobId, Duration timeout, java.util.function.Consumer<JobEvent> progress) {
        Objects.requireNonNull(progress, "progress");
        // the call's own context, cancelled on the way out: a wait left early (progress threw) does
        // not leave the stream open on the daemon until its deadline
        io.grpc.Context.CancellableContext call = io.grpc.Context.current().withCancellation();
        io.grpc.Context previous = call.attach();
        try {
            Iterator<JobEvent> it = blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .await(AwaitRequest.newBuilder().setJobId(jobId).build());
            while (it.hasNext()) {
                JobEvent e = it.next();
                progress.accept(e);
                JobResult r = outcome(e);
                if (r != null) {
                    return r;
                }
            }
            throw new IllegalStateException("the daemon ended Await of job " + jobId + " before the job ended");
        } finally {
            call.detach(previous);
            call.cancel(null);
        }
    }

    /**
     * {@link #await} without blocking and without a deadline: the future ends with the job, or
     * when the client is closed (CANCELLED); cancelling it ends the call (the job goes on).
     */
    public CompletableFuture<JobResult> awaitAsync(long jobId) {
        return awaitAsync(jobId, null);
    }

    /**
     * {@link #awaitAsync(long)} that fails with DEADLINE_EXCEEDED when the job has not ended
     * within timeout (the job goes on).
     */
    public CompletableFuture<JobResult> awaitAsync(long jobId, Duration timeout) {
        CompletableFuture<JobResult> done = new CompletableFuture<>();
        ProverGrpc.ProverStub stub = timeout == null ? async : async.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
        stub.await(AwaitRequest.newBuilder().setJobId(jobId).build(), new io.grpc.stub.ClientResponseObserver<AwaitRequest, JobEvent>() {
            @Override
            public void beforeStart(io.grpc.stub.ClientCallStreamObserver<AwaitRequest> requests) {
                done.whenComplete((r, e) -> {
                    if (done.isCancelled()) {
                        requests.cancel("the caller stopped waiting", null);
                    }
                });
            }

            @Override
            public void onNext(JobEvent e) {
                try {
                    JobResult r = outcome(e);
                    if (r != null) {
                        done.complete(r);
                    }
                } catch (JobFailedException x) {
                    done.completeExceptionally(x);
                }
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.completeExceptionally(new IllegalStateException("the daemon ended Await of job " + jobId + " before the job ended"));
            }
        });
        return done;
    }

    private static JobResult outcome(JobEvent e) {
        return switch (e.getState()) {
            case JOB_STATE_DONE -> e.getResult();
            case JOB_STATE_FAILED, JOB_STATE_CANCELLED -> throw new JobFailedException(e.getJobId(), e.getState(), e.getReason(), e.getFailure());
            default -> null;
        };
    }

    /**
     * Submits a small job and waits for its proofs in one call (witnesses in one message, within
     * the daemon's message limit); if the timeout passes, the daemon cancels the job. A job that
     * failed or was cancelled on the daemon is a {@link JobFailedException} (with its kind of
     * failure, such as a self-check's), as from {@link #await}.
     */
    public JobResult prove(String key, List<byte[]> witnesses, Priority priority, Duration timeout) {
        try {
            return blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).prove(proveRequest(key, witnesses, priority));
        } catch (io.grpc.StatusRuntimeException e) {
            throw jobEnded(e);
        }
    }

    /** A Prove's failure as JobFailedException when its job ended FAILED or CANCELLED on the daemon; any other as it was. */
    static RuntimeException jobEnded(Throwable t) {
        io.grpc.Status s = io.grpc.Status.fromThrowable(t);
        Metadata trailers = io.grpc.Status.trailersFromThrowable(t);
        String id = trailers == null ? null : trailers.get(Trailers.JOB_ID);
        if (id == null || (s.getCode() != io.grpc.Status.Code.ABORTED && s.getCode() != io.grpc.Status.Code.CANCELLED)) {
            return t instanceof RuntimeException r ? r : s.asRuntimeException(trailers);
        }
        long jobId;
        io.cuzk.api.v1.FailureKind kind;
        try {
            jobId = Long.parseLong(id);
        } catch (NumberFormatException e) { // not a daemon of ours: its status as it came
            return t instanceof RuntimeException r ? r : s.asRuntimeException(trailers);
        }
        try {
            kind = io.cuzk.api.v1.FailureKind.valueOf(String.valueOf(trailers.get(Trailers.FAILURE_KIND)));
        } catch (IllegalArgumentException e) { // a kind a newer daemon knows: the job failed all the same
            kind = io.cuzk.api.v1.FailureKind.UNRECOGNIZED;
        }
        JobState state = s.getCode() == io.grpc.Status.Code.ABORTED ? JobState.JOB_STATE_FAILED : JobState.JOB_STATE_CANCELLED;
        String reason = String.valueOf(s.getDescription());
        String prefix = "job " + jobId + " failed: ";
        JobFailedException x = new JobFailedException(jobId, state, reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason,
                kind);
        x.initCause(t);
        return x;
    }

    /** {@link #prove} without blocking. */
    public CompletableFuture<JobResult> proveAsync(String key, List<byte[]> witnesses, Priority priority, Duration timeout) {
        CompletableFuture<JobResult> done = new CompletableFuture<>();
        async.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).prove(proveRequest(key, witnesses, priority),
                new StreamObserver<>() {
                    @Override
                    public void onNext(JobResult r) {
                        done.complete(r);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(jobEnded(t));
                    }

                    @Override
                    public void onCompleted() {
                        done.completeExceptionally(new IllegalStateException("the daemon ended Prove without a result"));
                    }
                });
        return done;
    }

    private static ProveRequest proveRequest(String key, List<byte[]> witnesses, Priority priority) {
        ProveRequest.Builder b = ProveRequest.newBuilder().setSpec(spec(key, witnesses.size(), priority, null));
        for (byte[] w : witnesses) {
            b.addWitnesses(ByteString.copyFrom(w));
        }
        return b.build();
    }

    /** Cancels a job; the reply says whether it was still running, and its state. */
    public CancelReply cancel(long jobId) {
        return blocking.cancel(CancelRequest.newBuilder().setJobId(jobId).build());
    }

    public Status status() {
        return blocking.getStatus(StatusRequest.getDefaultInstance());
    }

    public List<KeyInfo> keys() {
        return blocking.listKeys(ListKeysRequest.getDefaultInstance()).getKeysList();
    }

    /**
     * Closes the connection. Calls that follow a job end at once with CANCELLED: {@link #run}'s
     * futures ("the client was closed while the job was in flight"; the job's daemon cancels it
     * unless another call follows it, as when the caller cancels), {@link #prove} (its job is
     * cancelled, as when its deadline passes) and {@link #await} or {@link #events} (the job goes
     * on: a later client may await it by its id). Other calls in flight (submissions, status) get
     * up to 5 s to finish, then are cut.
     */
    @Override
    public void close() {
        closing = true;
        for (ClientCall<?, ?> call : following) {
            call.cancel(CLOSED, null);
        }
        channel.shutdown();
        try {
            if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
                channel.shutdownNow();
            }
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ClientInterceptor bearer(String token) {
        String value = "Bearer " + token;
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        headers.put(AUTHORIZATION, value);
                        super.start(listener, headers);
                    }
                };
            }
        };
    }
}
