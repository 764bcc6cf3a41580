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
 * (NOT_FOUND for an unknown key, INVALID_ARGUMENT for a bad witness, RESOURCE_EXHAUSTED over a
 * limit, UNAVAILABLE while the daemon drains or is gone), and {@link JobFailedException} for a job
 * that failed or was cancelled on the daemon.
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

    private final ManagedChannel channel;
    private final ProverGrpc.ProverBlockingStub blocking;
    private final ProverGrpc.ProverStub async;

    private CuzkClient(ManagedChannel channel, String token) {
        this.channel = channel;
        Channel c = token == null ? channel : io.grpc.ClientInterceptors.intercept(channel, bearer(token));
        this.blocking = ProverGrpc.newBlockingStub(c);
        this.async = ProverGrpc.newStub(c);
    }

    /** A client of the daemon at target ("host:port"); plaintext unless {@link Builder#tls} is set. */
    public static Builder builder(String target) {
        return new Builder(target);
    }

    /** A client over a channel the caller built (in-process tests, custom transports); closing it shuts the channel down. */
    public static CuzkClient of(ManagedChannel channel, String token) {
        return new CuzkClient(Objects.requireNonNull(channel, "channel"), token);
    }

    public static final class Builder {
        private final String target;
        private String token;
        private Path caCert;
        private int maxInboundBytes = 64 << 20;

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

        public CuzkClient build() throws IOException {
            ChannelCredentials creds = caCert == null ? InsecureChannelCredentials.create()
                    : TlsChannelCredentials.newBuilder().trustManager(caCert.toFile()).build();
            ManagedChannel ch = Grpc.newChannelBuilder(target, creds).maxInboundMessageSize(maxInboundBytes).build();
            return new CuzkClient(ch, token);
        }
    }

    /** A submitted job: its id on the daemon, and whether the client job id named an earlier submission. */
    public record Submitted(long jobId, boolean existing) {}

    /** Thrown by await and prove for a job that ended FAILED or CANCELLED on the daemon. */
    public static final class JobFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long jobId;
        private final JobState state;

        public JobFailedException(long jobId, JobState state, String reason) {
            super("job " + jobId + " " + (state == JobState.JOB_STATE_CANCELLED ? "was cancelled" : "failed") + ": " + reason);
            this.jobId = jobId;
            this.state = state;
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
     * of 1 MiB. With a clientJobId, a second submission of that id returns the first job.
     */
    public Submitted submit(String key, List<byte[]> witnesses, Priority priority, String clientJobId) {
        try {
            return submitAsync(key, witnesses, priority, clientJobId).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // the call's StatusRuntimeException, as the other blocking calls throw it
            }
            throw e;
        }
    }

    /** {@link #submit} without blocking; the future fails with the call's StatusRuntimeException. */
    public CompletableFuture<Submitted> submitAsync(String key, List<byte[]> witnesses, Priority priority, String clientJobId) {
        return submitAsync(spec(key, witnesses.size(), priority, clientJobId), witnesses);
    }

    /**
     * Submits a job of one partition per circom input.json: the daemon calculates each witness
     * with the key's circuit (NAME.wasm next to the key in its folder), then proves. A witness
     * that cannot be calculated (a missing or extra signal, a failed assertion) refuses the job
     * with INVALID_ARGUMENT naming the partition and the signal.
     */
    public Submitted submitInputs(String key, List<String> inputJsons, Priority priority, String clientJobId) {
        List<byte[]> payload = new java.util.ArrayList<>(inputJsons.size());
        for (String in : inputJsons) {
            payload.add(in.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        JobSpec spec = spec(key, payload.size(), priority, clientJobId).toBuilder()
                .setFormat(io.cuzk.api.v1.PartitionFormat.PARTITION_FORMAT_INPUT_JSON).build();
        try {
            return submitAsync(spec, payload).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private CompletableFuture<Submitted> submitAsync(JobSpec spec, List<byte[]> witnesses) {
        CompletableFuture<Submitted> done = new CompletableFuture<>();
        async.submit(new io.grpc.stub.ClientResponseObserver<SubmitRequest, SubmitReply>() {
            private io.grpc.stub.ClientCallStreamObserver<SubmitRequest> out;
            private int partition;
            private int offset;
            private boolean specSent;
            private boolean finished;

            @Override
            public void beforeStart(io.grpc.stub.ClientCallStreamObserver<SubmitRequest> requests) {
                out = requests;
                // messages are built and sent only as fast as the transport takes them: the bytes
                // waiting in this client's memory stay one message, not the whole job
                requests.setOnReadyHandler(this::send);
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
                    done.completeExceptionally(e);
                }
            }

            /** The next message: the spec first, then up to CHUNK_BYTES of witness chunks in partition order; null at the end. */
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

    /** The job's events as they happen, ending with DONE, FAILED or CANCELLED. */
    public Iterator<JobEvent> events(long jobId) {
        return blocking.await(AwaitRequest.newBuilder().setJobId(jobId).build());
    }

    /** Waits for the job's proofs; throws JobFailedException if it failed or was cancelled. */
    public JobResult await(long jobId, Duration timeout) {
        return await(jobId, timeout, e -> { });
    }

    /** {@link #await(long, Duration)}, giving progress every event on the way (state, partitions done). */
    public JobResult await(long jobId, Duration timeout, java.util.function.Consumer<JobEvent> progress) {
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
    }

    /** {@link #await} without blocking. */
    public CompletableFuture<JobResult> awaitAsync(long jobId) {
        CompletableFuture<JobResult> done = new CompletableFuture<>();
        async.await(AwaitRequest.newBuilder().setJobId(jobId).build(), new StreamObserver<>() {
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
            case JOB_STATE_FAILED, JOB_STATE_CANCELLED -> throw new JobFailedException(e.getJobId(), e.getState(), e.getReason());
            default -> null;
        };
    }

    /**
     * Submits a small job and waits for its proofs in one call (witnesses in one message, within
     * the daemon's message limit); if the timeout passes, the daemon cancels the job.
     */
    public JobResult prove(String key, List<byte[]> witnesses, Priority priority, Duration timeout) {
        return blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).prove(proveRequest(key, witnesses, priority));
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
                        done.completeExceptionally(t);
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

    /** Closes the connection, waiting up to 5 s for calls in flight. */
    @Override
    public void close() {
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
