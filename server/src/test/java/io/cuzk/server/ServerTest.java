package io.cuzk.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.api.CuzkClient;
import io.cuzk.api.v1.JobEvent;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.KeyInfo;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.api.v1.Priority;
import io.cuzk.api.v1.Status;
import io.cuzk.groth16.Witness;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every call of the daemon's API and every error it answers with, against an in-process daemon
 * serving the bundled sample (BN254 Poseidon). The proofs' validity is checked by snarkjs in the
 * integration tests (DaemonIT); here: their shape, their public signals, one result per job.
 */
class ServerTest {
    static final Duration WAIT = Duration.ofMinutes(2);
    static final AtomicInteger NAMES = new AtomicInteger();
    static Path sample = Path.of("..", "samples", "poseidon-bn254").toAbsolutePath().normalize();
    static byte[] wtns;
    static List<BigInteger> publicSignals;

    @TempDir
    static Path keys;

    @BeforeAll
    static void setUp() throws Exception {
        Files.copy(sample.resolve("circuit.zkey"), keys.resolve("poseidon.zkey"));
        Files.writeString(keys.resolve("notes.txt"), "not a key");
        Files.writeString(keys.resolve("broken.zkey"), "not a key either");
        wtns = Files.readAllBytes(sample.resolve("witness.wtns"));
        try (Witness w = Witness.read(sample.resolve("witness.wtns"))) {
            publicSignals = w.publicSignals(io.cuzk.groth16.ProvingKey.shape(sample.resolve("circuit.zkey")).nPublic());
        }
    }

    record Daemon(CuzkServer server, String name) implements AutoCloseable {
        CuzkClient client(String token) {
            ManagedChannel ch = InProcessChannelBuilder.forName(name).build();
            return CuzkClient.of(ch, token);
        }

        @Override
        public void close() {
            server.close();
        }
    }

    static Daemon daemon(java.util.function.UnaryOperator<CuzkServer.Builder> settings) throws Exception {
        String name = "cuzk-test-" + NAMES.incrementAndGet();
        CuzkServer s = settings.apply(CuzkServer.builder().inProcess(name).keys(keys).drainTimeout(Duration.ofSeconds(30))).start();
        return new Daemon(s, name);
    }

    static void assertProof(PartitionProof p) {
        assertTrue(p.getProofJson().contains("\"protocol\": \"groth16\"") && p.getProofJson().contains("\"curve\": \"bn128\""),
                p.getProofJson());
        assertEquals(publicSignals.stream().map(BigInteger::toString).toList(), p.getPublicSignalsList());
        assertEquals("[\n \"" + publicSignals.get(0) + "\"\n]", p.getPublicJson()); // snarkjs's bytes: no new line at the end
        assertEquals(64 + 128 + 64, p.getProof().size(), "raw proof: EIP-196/197 G1, G2, G1");
        // the raw bytes hold proof.json's coordinates where EIP-196/197 puts them: pi_a.x first, and
        // in pi_b the imaginary part of x (snarkjs's pi_b[0][1]) before the real one
        String json = p.getProofJson();
        String ax = json.split("\"pi_a\": \\[\n  \"")[1].split("\"")[0];
        String[] bx = json.split("\"pi_b\": \\[\n  \\[\n   \"")[1].split("\"");
        assertArrayEquals(be32(ax), p.getProof().substring(0, 32).toByteArray());
        assertArrayEquals(be32(bx[2]), p.getProof().substring(64, 96).toByteArray(), "pi_b.x.c1");
        assertArrayEquals(be32(bx[0]), p.getProof().substring(96, 128).toByteArray(), "pi_b.x.c0");
    }

    /** Waits up to a minute for the daemon to list the job of that client job id in the state wanted; fails with what it lists. */
    static void awaitJob(CuzkClient c, String clientJobId, java.util.function.Predicate<io.cuzk.api.v1.JobSummary> wanted, String otherwise)
            throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (c.status().getJobsList().stream().noneMatch(j -> j.getClientJobId().equals(clientJobId) && wanted.test(j))) {
            assertTrue(System.nanoTime() < deadline, otherwise + ": " + c.status().getJobsList());
            Thread.sleep(10);
        }
    }

    static byte[] be32(String decimal) {
        byte[] x = new BigInteger(decimal).toByteArray();
        byte[] want = new byte[32];
        System.arraycopy(x, Math.max(0, x.length - 32), want, 32 - Math.min(32, x.length), Math.min(32, x.length));
        return want;
    }

    /**
     * A submission of inputs stops calculating their witnesses when its caller gives up (an
     * interrupt of the blocking call cancels it: CANCELLED, the interrupt status kept) or when a
     * drain's time ends (UNAVAILABLE, and the drain ends); no job is made of either. An input.json
     * longer than the key's circuit can need is refused before it is read.
     */
    @Test
    void inputSubmissionsStopWhenTheirCallerLeavesOrTheDrainEnds(@TempDir Path dir) throws Exception {
        Files.copy(sample.resolve("circuit.zkey"), dir.resolve("poseidon.zkey"));
        Files.copy(sample.resolve("circuit.wasm"), dir.resolve("poseidon.wasm"));
        String input = Files.readString(sample.resolve("input.json"));
        String name = "cuzk-test-" + NAMES.incrementAndGet();
        try (CuzkServer s = CuzkServer.builder().inProcess(name).keys(dir).maxWitnessBytes(1L << 30).start();
                CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName(name).build(), null)) {
            assertEquals(1, c.await(c.submitInputs("poseidon", List.of(input), Priority.PRIORITY_NORMAL, null).jobId(), WAIT)
                    .getProofsCount(), "the circuit compiled, one job made");
            StatusRuntimeException tooLong = assertThrows(StatusRuntimeException.class, () -> c.submitInputs("poseidon",
                    List.of(input.replace("{", "{" + " ".repeat(200_000))), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, tooLong.getStatus().getCode());
            assertTrue(tooLong.getStatus().getDescription().startsWith("input of partition 0: an input.json of 2000"), tooLong.getStatus()
                    .getDescription());
            List<String> many = Collections.nCopies(9000, input); // seconds of witnesses
            CompletableFuture<Throwable> left = new CompletableFuture<>();
            java.util.concurrent.atomic.AtomicBoolean interruptKept = new java.util.concurrent.atomic.AtomicBoolean();
            Thread submitter = new Thread(() -> {
                try {
                    c.submitInputs("poseidon", many, Priority.PRIORITY_NORMAL, null);
                    left.complete(null);
                } catch (Throwable e) {
                    interruptKept.set(Thread.currentThread().isInterrupted());
                    left.complete(e);
                }
            });
            submitter.start();
            awaitCalculating(s);
            submitter.interrupt();
            Throwable e = left.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(e instanceof StatusRuntimeException sre && sre.getStatus().getCode() == io.grpc.Status.Code.CANCELLED, "" + e);
            assertTrue(interruptKept.get(), "the interrupt status is kept");
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (s.accepting() > 0 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertEquals(0, s.accepting(), "the daemon stopped calculating the cancelled call's witnesses");
            assertEquals(1, c.status().getJobsSubmitted(), "and made no job of them");

            CompletableFuture<Throwable> drained = CompletableFuture.supplyAsync(() -> {
                try {
                    c.submitInputs("poseidon", many, Priority.PRIORITY_NORMAL, null);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            awaitCalculating(s);
            long t0 = System.nanoTime();
            s.drain(Duration.ofMillis(200));
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(8).toNanos(), "the drain ends soon after its time");
            Throwable d = drained.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(d instanceof StatusRuntimeException sre && sre.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE
                    && sre.getStatus().getDescription().contains("drain time ended"), "" + d);
        }
    }

    /** Until the daemon is accepting a submission (its witnesses received, being calculated). */
    static void awaitCalculating(CuzkServer s) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (s.accepting() == 0 && System.nanoTime() < until) {
            Thread.sleep(2);
        }
        assertTrue(s.accepting() > 0, "the submission reached the daemon");
    }

    @Test
    void keysAreListedByNameAndHash() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            List<KeyInfo> ks = c.keys();
            assertEquals(1, ks.size(), "the broken file and the text file are skipped: " + ks);
            KeyInfo k = ks.get(0);
            assertEquals("poseidon", k.getName());
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(keys.resolve("poseidon.zkey")));
            assertEquals(HexFormat.of().formatHex(digest), k.getSha256());
            assertEquals("bn128", k.getCurve());
            assertEquals(Files.size(keys.resolve("poseidon.zkey")), k.getFileBytes());
            assertFalse(k.getResident(), "loaded lazily");
            // the same key by its file name and by its hash
            assertEquals(1, c.prove("poseidon.zkey", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount());
            assertEquals(1, c.prove("sha256:" + k.getSha256(), List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount());
            assertTrue(c.keys().get(0).getResident());
            assertEquals(1, c.status().getResidentKeysCount());
        }
    }

    @Test
    void proveSubmitAndAwait() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            JobResult r = c.prove("poseidon", List.of(wtns, wtns), Priority.PRIORITY_HIGH, WAIT);
            assertEquals(2, r.getProofsCount());
            r.getProofsList().forEach(ServerTest::assertProof);
            assertFalse(r.getProofs(0).getProof().equals(r.getProofs(1).getProof()), "fresh blinding per partition");

            CuzkClient.Submitted s = c.submit("poseidon", Collections.nCopies(3, wtns), Priority.PRIORITY_NORMAL, null);
            assertFalse(s.existing());
            List<JobEvent> events = new ArrayList<>();
            Iterator<JobEvent> it = c.events(s.jobId());
            it.forEachRemaining(events::add);
            JobEvent last = events.get(events.size() - 1);
            assertEquals(JobState.JOB_STATE_DONE, last.getState(), events.toString());
            assertEquals(3, last.getResult().getProofsCount());
            last.getResult().getProofsList().forEach(ServerTest::assertProof);
            for (int i = 0; i + 1 < events.size(); i++) {
                assertTrue(events.get(i).getState().getNumber() <= JobState.JOB_STATE_FINALIZING_VALUE, events.toString());
            }
            // a finished job is kept: Await again, and asynchronously
            assertEquals(last.getResult(), c.await(s.jobId(), WAIT));
            assertEquals(last.getResult(), c.awaitAsync(s.jobId()).get());
            Status st = c.status();
            assertEquals(2, st.getJobsDone());
            assertEquals(5, st.getPartitionsDone());
            assertEquals(1, st.getDevicesCount());
            assertTrue(st.getDevices(0).getPartitions() == 5 && st.getDevices(0).getBusySeconds() > 0, st.toString());
            assertTrue(st.getMemory().getBudgetBytes() > 0 && st.getMemory().getBudgetUsedBytes() == 0, st.toString());
            assertTrue(st.getMemory().getPoolBytes() > 0, "the pool holds the partitions' slabs: " + st);
        }
    }

    /** Witnesses larger than a message go in 1 MiB chunks; the daemon reassembles them in order. */
    @Test
    void largeWitnessesAreStreamedInChunks() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            byte[] padded = java.util.Arrays.copyOf(wtns, 9 << 20); // trailing bytes: accepted with a warning, as snarkjs does
            CuzkClient.Submitted s = c.submit("poseidon", List.of(padded, wtns), Priority.PRIORITY_NORMAL, null);
            JobResult r = c.await(s.jobId(), WAIT);
            assertEquals(2, r.getProofsCount());
            r.getProofsList().forEach(ServerTest::assertProof);
        }
    }

    /** Witnesses streaming in are bounded over all submissions; a refused one gives its share back. */
    @Test
    void bytesBeingReceivedAreBounded() throws Exception {
        try (Daemon d = daemon(b -> b.maxReceivingBytes(3 << 20)); CuzkClient c = d.client(null)) {
            byte[] padded = java.util.Arrays.copyOf(wtns, 4 << 20);
            Throwable e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", List.of(padded), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, code(e));
            assertTrue(description(e).contains("receiving"), description(e));
            for (int i = 0; i < 3; i++) { // 2 MiB each: would exceed 3 MiB if the refused stream kept its share
                byte[] two = java.util.Arrays.copyOf(wtns, 2 << 20);
                assertEquals(1, c.await(c.submit("poseidon", List.of(two), Priority.PRIORITY_NORMAL, null).jobId(), WAIT).getProofsCount());
            }
        }
    }

    @Test
    void aClientJobIdIsProvedOnce() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            List<CompletableFuture<CuzkClient.Submitted>> subs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                subs.add(c.submitAsync("poseidon", List.of(wtns, wtns), Priority.PRIORITY_NORMAL, "farm-7/sector-42"));
            }
            long id = subs.get(0).get().jobId();
            int fresh = 0;
            for (CompletableFuture<CuzkClient.Submitted> f : subs) {
                assertEquals(id, f.get().jobId());
                fresh += f.get().existing() ? 0 : 1;
            }
            assertEquals(1, fresh, "one submission made the job, the others got it");
            assertEquals(2, c.await(id, WAIT).getProofsCount());
            assertEquals(id, c.submit("poseidon", List.of(wtns, wtns), Priority.PRIORITY_NORMAL, "farm-7/sector-42").jobId());
            StatusRuntimeException other = assertThrows(StatusRuntimeException.class,
                    () -> c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, "farm-7/sector-42"));
            assertEquals(io.grpc.Status.Code.ALREADY_EXISTS, other.getStatus().getCode());
            // the same key by another of its names is the same job
            assertEquals(id, c.submit("poseidon.zkey", List.of(wtns, wtns), Priority.PRIORITY_NORMAL, "farm-7/sector-42").jobId());
            Status st = c.status();
            assertEquals(1, st.getJobsSubmitted(), "proved once");
            assertEquals(2, st.getPartitionsDone());
            // a refused submission leaves its id free for the corrected one
            byte[] truncated = java.util.Arrays.copyOf(wtns, wtns.length - 5);
            assertThrows(StatusRuntimeException.class, () -> c.submit("poseidon", List.of(truncated), Priority.PRIORITY_NORMAL, "retry-1"));
            CuzkClient.Submitted fixed = c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, "retry-1");
            assertFalse(fixed.existing());
            assertEquals(1, c.await(fixed.jobId(), WAIT).getProofsCount());
        }
    }

    static io.grpc.Status.Code code(Throwable t) {
        while (t != null && !(t instanceof StatusRuntimeException)) {
            t = t.getCause();
        }
        return t == null ? null : ((StatusRuntimeException) t).getStatus().getCode();
    }

    static String description(Throwable t) {
        while (t != null && !(t instanceof StatusRuntimeException)) {
            t = t.getCause();
        }
        return t == null ? null : ((StatusRuntimeException) t).getStatus().getDescription();
    }

    @Test
    void badRequestsGetTheirStatusAndLeaveTheDaemonServing() throws Exception {
        try (Daemon d = daemon(b -> b.maxWitnessBytes(4 << 20).maxQueuedPartitions(50)); CuzkClient c = d.client(null)) {
            Throwable e = assertThrows(RuntimeException.class, () -> c.prove("nope", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT));
            assertEquals(io.grpc.Status.Code.NOT_FOUND, code(e));
            assertTrue(description(e).contains("no key named nope"), description(e));

            byte[] truncated = java.util.Arrays.copyOf(wtns, wtns.length - 5);
            e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", List.of(wtns, truncated), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, code(e));
            assertTrue(description(e).startsWith("witness of partition 1: "), description(e));

            e = assertThrows(RuntimeException.class,
                    () -> c.submit("poseidon", List.of(new byte[5 << 20]), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, code(e));

            e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", Collections.nCopies(51, wtns), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, code(e));
            assertTrue(description(e).contains("queues at most 50"), description(e));
            // a job that fits alone but not beside the 50 partitions already waiting
            CuzkClient.Submitted full = c.submit("poseidon", Collections.nCopies(50, wtns), Priority.PRIORITY_LOW, null);
            e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, code(e));
            assertTrue(description(e).contains("queue is full"), description(e));
            c.cancel(full.jobId());
            long until = System.nanoTime() + 30_000_000_000L;
            while (c.status().getMemory().getBudgetUsedBytes() > 0 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            // an index past 2^31 (uint32 in the proto) is a bad request, not a server error
            ManagedChannel rawChannel = InProcessChannelBuilder.forName(d.name()).build();
            io.cuzk.api.v1.ProverGrpc.ProverStub raw = io.cuzk.api.v1.ProverGrpc.newStub(rawChannel);
            CompletableFuture<Throwable> answer = new CompletableFuture<>();
            io.grpc.stub.StreamObserver<io.cuzk.api.v1.SubmitRequest> out = raw.submit(new io.grpc.stub.StreamObserver<>() {
                @Override
                public void onNext(io.cuzk.api.v1.SubmitReply r) {
                    answer.complete(null);
                }

                @Override
                public void onError(Throwable t) {
                    answer.complete(t);
                }

                @Override
                public void onCompleted() {}
            });
            out.onNext(io.cuzk.api.v1.SubmitRequest.newBuilder().setSpec(io.cuzk.api.v1.JobSpec.newBuilder().setKey("poseidon").setPartitions(1))
                    .addChunks(io.cuzk.api.v1.WitnessChunk.newBuilder().setPartition(-1).setData(com.google.protobuf.ByteString.copyFrom(wtns)))
                    .build());
            out.onCompleted();
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, code(answer.get()));
            rawChannel.shutdownNow();

            e = assertThrows(RuntimeException.class, () -> c.await(12345, WAIT));
            assertEquals(io.grpc.Status.Code.NOT_FOUND, code(e));
            e = assertThrows(RuntimeException.class, () -> c.cancel(12345));
            assertEquals(io.grpc.Status.Code.NOT_FOUND, code(e));
            e = assertThrows(RuntimeException.class, () -> c.submit("", List.of(wtns), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, code(e));
            e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, "x".repeat(129)));
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, code(e));

            // after all that, the daemon proves, and nothing it refused holds memory or a queue place
            assertEquals(1, c.prove("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount());
            Status st = c.status();
            assertEquals(2, st.getJobsSubmitted(), "the one proved and the one cancelled");
            assertEquals(0, st.getMemory().getBudgetUsedBytes());
            assertEquals(50, c.prove("poseidon", Collections.nCopies(50, wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount(),
                    "exactly the queue limit is accepted");
        }
    }

    @Test
    void cancelEndsTheJobAndTellsItsWatchers() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            CuzkClient.Submitted s = c.submit("poseidon", Collections.nCopies(200, wtns), Priority.PRIORITY_LOW, null);
            CompletableFuture<JobResult> waiting = c.awaitAsync(s.jobId());
            assertTrue(c.cancel(s.jobId()).getCancelled());
            Throwable e = assertThrows(Exception.class, waiting::get);
            CuzkClient.JobFailedException f = (CuzkClient.JobFailedException) e.getCause();
            assertEquals(JobState.JOB_STATE_CANCELLED, f.state());
            assertFalse(c.cancel(s.jobId()).getCancelled(), "a second cancel finds it ended");
            assertEquals(JobState.JOB_STATE_CANCELLED, c.cancel(s.jobId()).getState());
            assertEquals(1, c.status().getJobsCancelled());
            // its memory comes back once partitions on the device finish their kernels
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (c.status().getMemory().getBudgetUsedBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, c.status().getMemory().getBudgetUsedBytes());

            // a Prove whose job another call cancels: JobFailedException, as for await
            CompletableFuture<JobResult> proving = c.proveAsync("poseidon", Collections.nCopies(200, wtns), Priority.PRIORITY_LOW, WAIT);
            deadline = System.nanoTime() + 60_000_000_000L;
            long id = 0;
            while (id == 0) {
                assertTrue(System.nanoTime() < deadline, "the Prove's job was not listed");
                id = c.status().getJobsList().stream().filter(j -> j.getJobId() != s.jobId() && j.getState() != JobState.JOB_STATE_CANCELLED)
                        .mapToLong(io.cuzk.api.v1.JobSummary::getJobId).findFirst().orElse(0);
                Thread.sleep(10);
            }
            assertTrue(c.cancel(id).getCancelled());
            Throwable p = assertThrows(java.util.concurrent.ExecutionException.class, () -> proving.get(60, java.util.concurrent.TimeUnit.SECONDS))
                    .getCause();
            assertTrue(p instanceof CuzkClient.JobFailedException j && j.jobId() == id && j.state() == JobState.JOB_STATE_CANCELLED
                    && j.failure() == io.cuzk.api.v1.FailureKind.FAILURE_KIND_UNSPECIFIED, String.valueOf(p));
        }
    }

    /** A Prove call whose deadline passes cancels its job on the daemon. */
    @Test
    void aProveDeadlineCancelsTheJob() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            Throwable e = assertThrows(RuntimeException.class,
                    () -> c.prove("poseidon", Collections.nCopies(300, wtns), Priority.PRIORITY_NORMAL, Duration.ofMillis(300)));
            assertEquals(io.grpc.Status.Code.DEADLINE_EXCEEDED, code(e));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (c.status().getJobsCancelled() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Status st = c.status();
            assertEquals(1, st.getJobsCancelled(), st.toString());
            assertTrue(st.getPartitionsDone() < 300, "stopped early: " + st.getPartitionsDone());
        }
    }

    @Test
    void aTokenIsRequiredOnEveryCallButHealth() throws Exception {
        try (Daemon d = daemon(b -> b.token("s3cret-token")); CuzkClient none = d.client(null); CuzkClient wrong = d.client("s3cret-tokem");
                CuzkClient right = d.client("s3cret-token")) {
            Throwable e = assertThrows(StatusRuntimeException.class, none::keys);
            assertEquals(io.grpc.Status.Code.UNAUTHENTICATED, code(e));
            e = assertThrows(StatusRuntimeException.class, () -> wrong.prove("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT));
            assertEquals(io.grpc.Status.Code.UNAUTHENTICATED, code(e));
            assertEquals(0, right.status().getJobsSubmitted(), "refused calls reach nothing");
            assertEquals(1, right.prove("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount());
            ManagedChannel ch = InProcessChannelBuilder.forName(d.name()).build();
            try {
                HealthCheckResponse h = HealthGrpc.newBlockingStub(ch).check(HealthCheckRequest.newBuilder().setService("cuzk.v1.Prover").build());
                assertEquals(HealthCheckResponse.ServingStatus.SERVING, h.getStatus());
            } finally {
                ch.shutdownNow();
            }
        }
    }

    /** Shutting down: no new jobs, running ones finish within the drain time, the rest are cancelled and their clients told. */
    @Test
    void drainFinishesWhatItCanAndCancelsTheRest() throws Exception {
        Daemon d = daemon(b -> b);
        try (CuzkClient c = d.client(null)) {
            CuzkClient.Submitted small = c.submit("poseidon", List.of(wtns), Priority.PRIORITY_CRITICAL, null);
            CuzkClient.Submitted big = c.submit("poseidon", Collections.nCopies(400, wtns), Priority.PRIORITY_LOW, null);
            CompletableFuture<JobResult> smallResult = c.awaitAsync(small.jobId());
            CompletableFuture<JobResult> bigResult = c.awaitAsync(big.jobId());
            while (c.status().getPartitionsDone() < 1) {
                Thread.sleep(5);
            }
            ManagedChannel ch = InProcessChannelBuilder.forName(d.name()).build();
            CompletableFuture<Integer> drained = CompletableFuture.supplyAsync(() -> d.server().drain(Duration.ofMillis(500)));
            long deadline = System.nanoTime() + 10_000_000_000L;
            HealthCheckResponse.ServingStatus hs = HealthCheckResponse.ServingStatus.SERVING;
            while (hs == HealthCheckResponse.ServingStatus.SERVING && System.nanoTime() < deadline) {
                hs = HealthGrpc.newBlockingStub(ch).check(HealthCheckRequest.getDefaultInstance()).getStatus();
            }
            assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, hs);
            Throwable e = assertThrows(RuntimeException.class, () -> c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, null));
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, code(e));
            ch.shutdownNow();
            assertEquals(1, drained.get());
            assertEquals(1, smallResult.get().getProofsCount());
            Throwable why = assertThrows(Exception.class, bigResult::get).getCause();
            assertTrue(why instanceof CuzkClient.JobFailedException f && f.state() == JobState.JOB_STATE_CANCELLED
                    && why.getMessage().contains("shut down"), String.valueOf(why));
        }
    }

    @Test
    void plaintextOffLoopbackIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CuzkServer.builder().listen("0.0.0.0", 0).keys(keys).start());
        assertTrue(e.getMessage().contains("needs TLS"), e.getMessage());
        assertTrue(CuzkServer.loopback("127.0.0.1") && CuzkServer.loopback("::1") && CuzkServer.loopback("localhost"));
        assertFalse(CuzkServer.loopback("0.0.0.0"));
    }

    /** A real socket on 127.0.0.1, port chosen by the system. */
    @Test
    void servesOnLoopback() throws Exception {
        try (CuzkServer s = CuzkServer.builder().listen("127.0.0.1", 0).keys(keys).start();
                CuzkClient c = CuzkClient.builder("127.0.0.1:" + s.port()).build()) {
            assertTrue(s.port() > 0);
            assertProof(c.prove("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofs(0));
        }
    }

    /** A key file truncated and rewritten on disk after the daemon read it: the daemon proves on, no SIGBUS. */
    @Test
    void keysSurviveTheirFilesChanging(@TempDir Path dir) throws Exception {
        Path key = dir.resolve("k.zkey");
        Files.copy(sample.resolve("circuit.zkey"), key);
        try (CuzkServer s = CuzkServer.builder().inProcess("cuzk-change").keys(dir).preload(true).start();
                CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName("cuzk-change").build(), null)) {
            assertTrue(c.keys().get(0).getResident(), "--preload read it at start");
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(key, java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(100);
            }
            assertProof(c.prove("k", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofs(0));
            Files.write(key, new byte[1 << 16]); // rewritten in place with zeros
            assertProof(c.prove("k", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofs(0));
            Files.delete(key);
            assertProof(c.prove("k", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofs(0));
        }
    }

    /**
     * TLS on 127.0.0.1 with a self-signed certificate made by openssl (skipped, and said so, where
     * there is no openssl): a client trusting it proves; a plaintext client gets nothing.
     */
    @Test
    void tls(@TempDir Path dir) throws Exception {
        Path cert = dir.resolve("tls.crt"), pkey = dir.resolve("tls.key");
        Process p;
        try {
            p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", pkey.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost").redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no openssl to make a test certificate: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, out);
        try (CuzkServer s = CuzkServer.builder().listen("127.0.0.1", 0).http("127.0.0.1", 0).keys(keys).tls(cert, pkey).start();
                CuzkClient secure = CuzkClient.builder("127.0.0.1:" + s.port()).tls(cert).build();
                CuzkClient plain = CuzkClient.builder("127.0.0.1:" + s.port()).build()) {
            assertProof(secure.prove("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, WAIT).getProofs(0));
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, plain::keys);
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, e.getStatus().getCode());
            // the HTTP side is HTTPS with the same certificate
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (var in = Files.newInputStream(cert)) {
                trust.setCertificateEntry("cuzk", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            try (java.net.http.HttpClient https = java.net.http.HttpClient.newBuilder().sslContext(ctx).build()) {
                var r = https.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("https://127.0.0.1:" + s.httpPort() + "/api/status"))
                        .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertTrue(r.body().contains("\"jobsDone\""), r.body());
            }
            assertThrows(java.io.IOException.class, () -> get(s.httpPort(), "/api/status", null), "plain HTTP to the HTTPS port");
        }
        // TLS makes another address acceptable without --insecure; half a TLS setting does not
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
                () -> CuzkServer.builder().listen("127.0.0.1", 0).keys(keys).tls(cert, null).start());
        assertTrue(half.getMessage().contains("both"), half.getMessage());
    }

    static java.net.http.HttpResponse<String> get(int port, String path, String token) throws Exception {
        java.net.http.HttpRequest.Builder r = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        try (java.net.http.HttpClient c = java.net.http.HttpClient.newHttpClient()) {
            return c.send(r.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        }
    }

    /**
     * --http: /metrics in Prometheus text format (checked by promtool where it is installed, as CI
     * installs it), /api/status as JSON, /trace as trace-event JSON with the proved partitions; the
     * token guards them all.
     */
    @Test
    void httpMetricsStatusAndTrace() throws Exception {
        try (CuzkServer s = CuzkServer.builder().inProcess("cuzk-http").keys(keys).http("127.0.0.1", 0).token("t0ken").start();
                CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName("cuzk-http").build(), "t0ken")) {
            assertEquals(3, c.prove("poseidon", List.of(wtns, wtns, wtns), Priority.PRIORITY_NORMAL, WAIT).getProofsCount());
            int port = s.httpPort();
            assertEquals(401, get(port, "/metrics", null).statusCode());
            assertEquals(401, get(port, "/metrics", "wrong").statusCode());
            var m = get(port, "/metrics", "t0ken");
            assertEquals(200, m.statusCode());
            String metrics = m.body();
            assertTrue(metrics.contains("cuzk_partitions_ended_total{outcome=\"done\"} 3.0"), metrics);
            assertTrue(metrics.contains("cuzk_jobs_submitted_total 1.0"), metrics);
            assertTrue(metrics.contains("cuzk_device_utilization{device=\"device-0-"), metrics);
            assertTrue(metrics.contains("cuzk_keys_resident 1.0"), metrics);
            assertTrue(metrics.contains("cuzk_key_loads_total{outcome=\"done\"} 1.0"), metrics);
            assertTrue(metrics.contains("cuzk_key_loads_total{outcome=\"failed\"} 0.0"), metrics);
            // histograms: a proof's latency (phase total) per bucket, the device's idle gaps
            assertTrue(metrics.contains("cuzk_partition_phase_seconds_count{phase=\"total\"} 3"), metrics);
            assertTrue(metrics.contains("cuzk_partition_phase_seconds_bucket{phase=\"total\",le=\"+Inf\"} 3"), metrics);
            assertTrue(metrics.contains("# TYPE cuzk_device_idle_gap_seconds histogram"), metrics);
            assertTrue(metrics.contains("cuzk_device_idle_gap_seconds_bucket{device=\"device-0-"), metrics);
            assertTrue(metrics.contains("jvm_memory_used_bytes"), metrics);
            java.nio.file.Path promtool = java.nio.file.Path.of("/usr/bin/promtool");
            if (Files.isExecutable(promtool)) {
                Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
                p.getOutputStream().write(metrics.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                p.getOutputStream().close();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), "promtool check metrics: " + out);
            } else {
                System.out.println("ServerTest: no promtool at " + promtool + ": /metrics checked by content only");
            }
            var st = get(port, "/api/status", "t0ken");
            assertEquals(200, st.statusCode());
            var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(st.body());
            assertEquals(3, json.path("partitionsDone").asLong(), st.body());
            var job = json.path("jobs").get(0);
            assertEquals(1, json.path("jobs").size(), st.body());
            assertEquals("JOB_STATE_DONE", job.path("state").asText(), st.body());
            assertEquals(3, job.path("partitions").asInt());
            assertEquals(3, job.path("partitionsDone").asInt());
            assertEquals("poseidon", job.path("key").asText());
            assertTrue(job.path("seconds").asDouble() > 0, st.body());
            assertEquals(401, get(port, "/api/status", null).statusCode());
            // each device's busy share per 0.2 s: 300 bins for 60 s, some busy (3 proofs ran), none above 1
            var util = new com.fasterxml.jackson.databind.ObjectMapper().readTree(get(port, "/api/utilization?seconds=60", "t0ken").body());
            assertEquals(0.2, util.path("step").asDouble());
            var bins = util.path("devices").elements().next();
            assertEquals(300, bins.size(), util.toString());
            double busy = 0;
            for (var b : bins) {
                assertTrue(b.asDouble() >= 0 && b.asDouble() <= 1, util.toString());
                busy += b.asDouble() * 0.2;
            }
            assertTrue(busy > 0 && busy <= json.path("devices").get(0).path("busySeconds").asDouble() + 1e-3,
                    busy + " busy seconds in the bins, " + json.path("devices").get(0));
            assertEquals(401, get(port, "/api/utilization?seconds=60", null).statusCode());
            // the page and its scripts (uPlot from its webjar) carry no data: served without the token
            var page = get(port, "/", null);
            assertEquals(200, page.statusCode());
            assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page.headers().toString());
            assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'self'"));
            assertTrue(page.body().contains("/static/uPlot.iife.min.js") && page.body().contains("/static/status.js"), page.body());
            for (String f : List.of("uPlot.iife.min.js", "uPlot.min.css", "status.js", "status.css")) {
                var r = get(port, "/static/" + f, null);
                assertEquals(200, r.statusCode(), f);
                assertTrue(r.body().length() > 1000, f);
            }
            assertTrue(get(port, "/static/uPlot.iife.min.js", null).body().contains("uPlot"));
            assertEquals(404, get(port, "/static/status.js.map", null).statusCode());
            assertEquals(404, get(port, "/static/../index.html", null).statusCode());
            var trace = get(port, "/trace?seconds=120", "t0ken");
            assertEquals(200, trace.statusCode());
            long slices = 0;
            for (var e : new com.fasterxml.jackson.databind.ObjectMapper().readTree(trace.body()).get("traceEvents")) {
                if (e.path("ph").asText().equals("X") && e.path("name").asText().equals("device")) {
                    slices++;
                }
            }
            assertEquals(3, slices, "a device slice per proved partition");
            assertEquals(400, get(port, "/trace?seconds=soon", "t0ken").statusCode());
            var tl = get(port, "/api/timeline?since=120", "t0ken");
            assertEquals(200, tl.statusCode());
            var workers = new com.fasterxml.jackson.databind.ObjectMapper().readTree(tl.body()).get("workers");
            long device = 0;
            for (var w : workers.properties()) {
                for (var iv : w.getValue()) {
                    assertTrue(iv.get("start").asDouble() <= iv.get("end").asDouble() && iv.get("end").asDouble() <= 0, iv.toString());
                    if (iv.get("phase").asText().equals("MSMs")) {
                        assertTrue(w.getKey().startsWith("device-0-worker-"), w.getKey());
                        device++;
                    }
                }
            }
            assertEquals(3, device, tl.body());
            assertEquals(400, get(port, "/api/timeline?since=x", "t0ken").statusCode());
            assertEquals(404, get(port, "/nothing", "t0ken").statusCode());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CuzkServer.builder().inProcess("cuzk-http-2").keys(keys).http("0.0.0.0", 0).start());
        assertTrue(e.getMessage().contains("--insecure"), e.getMessage());
    }

    /**
     * Run: the witnesses in, the job's events out, on the daemon the call reached, named in every
     * event; the call gone, the job goes and its client job id is free again; the load that the
     * daemon reports through ORCA (out of band, without the token) and in its status.
     */
    @Test
    void runFollowsItsJobAndTheLoadIsReported() throws Exception {
        try (Daemon d = daemon(b -> b.token("t0ken")); CuzkClient c = d.client("t0ken")) {
            List<JobEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
            CuzkClient.Proved p = c.run("poseidon", List.of(wtns, wtns, wtns), Priority.PRIORITY_NORMAL, "run-1", WAIT, events::add);
            assertEquals(1, p.attempts());
            assertEquals(d.name(), p.daemon(), "the in-process daemon is named after its channel");
            assertEquals(d.name(), p.result().getDaemon());
            assertEquals(3, p.result().getProofsCount());
            for (PartitionProof proof : p.result().getProofsList()) {
                assertProof(proof);
            }
            assertEquals(JobState.JOB_STATE_DONE, events.getLast().getState());
            assertTrue(events.stream().allMatch(e -> e.getDaemon().equals(d.name()) && e.getJobId() == p.result().getJobId()), events.toString());
            // the same client job id again: the same job, not a second proof run
            CuzkClient.Proved again = c.run("poseidon", List.of(wtns, wtns, wtns), Priority.PRIORITY_NORMAL, "run-1", WAIT, null);
            assertEquals(p.result().getJobId(), again.result().getJobId());
            assertEquals(p.result(), again.result());

            // the caller leaves: the job is cancelled and its id made free for a later attempt
            CompletableFuture<CuzkClient.Proved> left = c.runAsync("poseidon", Collections.nCopies(500, wtns), Priority.PRIORITY_LOW,
                    "run-2", WAIT, null);
            awaitJob(c, "run-2", j -> j.getPartitionsDone() > 0, "the long job did not start");
            left.cancel(true);
            awaitJob(c, "run-2", j -> j.getState() == JobState.JOB_STATE_CANCELLED, "the job whose Run call went away was not cancelled");
            CuzkClient.Submitted fresh = c.submit("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, "run-2");
            assertFalse(fresh.existing(), "the cancelled Run's client job id names a new job");
            assertEquals(1, c.await(fresh.jobId(), WAIT).getProofsCount());

            // ORCA, out of band, asked for without the token as a balancing channel does
            ManagedChannel plain = InProcessChannelBuilder.forName(d.name()).build();
            try {
                var orca = io.grpc.xds.shaded.com.github.xds.service.orca.v3.OpenRcaServiceGrpc.newBlockingStub(plain)
                        .withDeadlineAfter(20, java.util.concurrent.TimeUnit.SECONDS);
                var reports = orca.streamCoreMetrics(io.grpc.xds.shaded.com.github.xds.service.orca.v3.OrcaLoadReportRequest.newBuilder()
                        .setReportInterval(com.google.protobuf.Duration.newBuilder().setSeconds(1)).build());
                io.grpc.xds.shaded.com.github.xds.data.orca.v3.OrcaLoadReport r = null;
                for (int i = 0; i < 10 && reports.hasNext(); i++) {
                    r = reports.next();
                    if (r.getRpsFractional() > 0) {
                        break;
                    }
                }
                assertTrue(r != null && r.getRpsFractional() > 0, "partitions proved in the last seconds: " + r);
                assertTrue(r.getApplicationUtilization() > 0, "partitions were held: " + r);
                assertTrue(r.getUtilizationMap().containsKey("device_busy") && r.getUtilizationMap().containsKey("budget_used"), r.toString());
                assertTrue(r.getMemUtilization() >= 0 && r.getMemUtilization() <= 1, r.toString());
            } finally {
                plain.shutdownNow();
            }
            Status st = c.status();
            assertEquals(d.name(), st.getName());
            assertTrue(st.getLoad().getWindowSeconds() > 0 && st.getLoad().getFreeBudgetBytes() > 0, st.getLoad().toString());
        }
    }

    /** A job the daemon could not finish before it shut down ends its Run call UNAVAILABLE: the client may place it elsewhere. */
    @Test
    void runOfAJobCutByTheDrainIsUnavailable() throws Exception {
        Daemon d = daemon(b -> b);
        try (CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName(d.name()).build(), null, 2, Duration.ofMillis(50))) {
            CompletableFuture<CuzkClient.Proved> f = c.runAsync("poseidon", Collections.nCopies(2000, wtns), Priority.PRIORITY_LOW, null,
                    WAIT, null);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (c.status().getPartitionsDone() < 1) {
                assertTrue(System.nanoTime() < deadline, "the job did not start");
                Thread.sleep(10);
            }
            d.server().drain(Duration.ofMillis(100));
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> f.get(60, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof StatusRuntimeException s && s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE
                    && s.getMessage().contains("could not be placed on any daemon in 2 attempts"), String.valueOf(e.getCause()));
        } finally {
            d.close();
        }
    }

    /**
     * A daemon whose queue is full marks its RESOURCE_EXHAUSTED as passing: Run places the job
     * again (here on the same daemon, the only one) until its attempts are spent, and says so; with
     * more patience it is placed once there is room. A job over a fixed limit is refused at once.
     */
    @Test
    void aFullDaemonIsTriedAgain() throws Exception {
        try (Daemon d = daemon(b -> b.maxQueuedPartitions(100));
                CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName(d.name()).build(), null, 3, Duration.ofMillis(20))) {
            StatusRuntimeException fixed = assertThrows(StatusRuntimeException.class,
                    () -> c.run("poseidon", Collections.nCopies(101, wtns), Priority.PRIORITY_NORMAL, null, WAIT, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, fixed.getStatus().getCode());
            assertTrue(fixed.getStatus().getDescription().startsWith("the job declares 101 partitions"), fixed.getMessage());
            CuzkClient.Submitted big = c.submit("poseidon", Collections.nCopies(100, wtns), Priority.PRIORITY_LOW, null);
            StatusRuntimeException full = assertThrows(StatusRuntimeException.class,
                    () -> c.run("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, null, WAIT, null));
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, full.getStatus().getCode());
            assertTrue(full.getMessage().contains("could not be placed on any daemon in 3 attempts; the last: the daemon's queue is full"),
                    full.getMessage());
            try (CuzkClient patient = CuzkClient.of(InProcessChannelBuilder.forName(d.name()).build(), null, 50, Duration.ofMillis(50))) {
                CuzkClient.Proved p = patient.run("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, null, WAIT, null);
                assertEquals(1, p.result().getProofsCount());
                assertProof(p.result().getProofs(0));
                assertTrue(p.attempts() > 1, "placed at once while the queue was full: " + p.attempts());
            }
            assertEquals(100, c.await(big.jobId(), WAIT).getProofsCount());
        }
    }

    /**
     * A client that came back with the same client job id follows the job its first Run call
     * made; the first call's end does not cancel it.
     */
    @Test
    void aRunLeavingDoesNotCancelAJobOthersFollow() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            CompletableFuture<CuzkClient.Proved> first = c.runAsync("poseidon", Collections.nCopies(60, wtns), Priority.PRIORITY_LOW,
                    "shared-1", WAIT, null);
            awaitJob(c, "shared-1", j -> j.getPartitionsDone() > 0, "the job did not start");
            java.util.concurrent.CountDownLatch attached = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<CuzkClient.Proved> second = c.runAsync("poseidon", Collections.nCopies(60, wtns), Priority.PRIORITY_LOW,
                    "shared-1", WAIT, e -> attached.countDown()); // its first event: it follows the job
            assertTrue(attached.await(60, java.util.concurrent.TimeUnit.SECONDS), "the second call did not attach");
            first.cancel(true);
            CuzkClient.Proved p = second.get(2, java.util.concurrent.TimeUnit.MINUTES);
            assertEquals(60, p.result().getProofsCount());
            assertEquals(1, c.status().getJobsSubmitted(), "one job, followed twice");
        }
    }

    /**
     * Closing a client ends its calls that follow jobs at once, without waiting out the 5 s it
     * gives other calls: a Run's future fails CANCELLED naming the close, and its job is cancelled
     * on the daemon, as a Prove's; an Await (blocking or not) fails CANCELLED and its job goes on. A job placed
     * after the close is refused as not placed. awaitAsync with a timeout ends at it; the job goes on.
     */
    @Test
    void closingAClientEndsTheCallsThatFollowJobs() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient watcher = d.client(null); CuzkClient c = d.client(null)) { // closed twice: harmless
            CompletableFuture<CuzkClient.Proved> run = c.runAsync("poseidon", Collections.nCopies(500, wtns), Priority.PRIORITY_LOW,
                    "closed-run", WAIT, null);
            awaitJob(c, "closed-run", j -> j.getPartitionsDone() > 0, "the long job did not start");
            CuzkClient.Submitted sub = c.submit("poseidon", Collections.nCopies(300, wtns), Priority.PRIORITY_LOW, "closed-await");
            java.util.concurrent.ExecutionException late = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> watcher.awaitAsync(sub.jobId(), Duration.ofMillis(100)).get(60, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(io.grpc.Status.Code.DEADLINE_EXCEEDED, io.grpc.Status.fromThrowable(late.getCause()).getCode(), late.toString());

            CompletableFuture<io.cuzk.api.v1.JobResult> awaitedAsync = c.awaitAsync(sub.jobId());
            CompletableFuture<io.cuzk.api.v1.JobResult> proving = c.proveAsync("poseidon", Collections.nCopies(100, wtns),
                    Priority.PRIORITY_LOW, WAIT);
            java.util.concurrent.CountDownLatch following = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<Throwable> awaited = new CompletableFuture<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    c.await(sub.jobId(), WAIT, e -> following.countDown());
                    awaited.complete(null);
                } catch (Throwable t) {
                    awaited.complete(t);
                }
            });
            assertTrue(following.await(60, java.util.concurrent.TimeUnit.SECONDS), "the blocking await got no event");
            long start = System.nanoTime();
            c.close();
            long closing = System.nanoTime() - start;
            assertTrue(closing < 4_000_000_000L, "close waited for the calls that follow jobs: " + closing / 1_000_000 + " ms");

            java.util.concurrent.ExecutionException ran = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> run.get(10, java.util.concurrent.TimeUnit.SECONDS));
            StatusRuntimeException r = (StatusRuntimeException) ran.getCause();
            assertEquals(io.grpc.Status.Code.CANCELLED, r.getStatus().getCode(), r.toString());
            assertTrue(r.getStatus().getDescription().startsWith("job closed-run: the client was closed while the job was in flight"),
                    r.getMessage());
            Throwable blocking = awaited.get(10, java.util.concurrent.TimeUnit.SECONDS);
            waiter.join(10_000);
            assertTrue(blocking instanceof StatusRuntimeException s && s.getStatus().getCode() == io.grpc.Status.Code.CANCELLED
                    && "the client was closed".equals(s.getStatus().getDescription()), String.valueOf(blocking));
            java.util.concurrent.ExecutionException async = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> awaitedAsync.get(10, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(io.grpc.Status.Code.CANCELLED, io.grpc.Status.fromThrowable(async.getCause()).getCode(), async.toString());
            java.util.concurrent.ExecutionException proved = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> proving.get(10, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals("CANCELLED: the client was closed", proved.getCause().getMessage());

            java.util.concurrent.ExecutionException after = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> c.runAsync("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, "after-close", WAIT, null)
                            .get(10, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals("CANCELLED: job after-close: the client was closed before the job was placed", after.getCause().getMessage());

            // on the daemon: the Run's job cancelled, the awaited one proved in full
            awaitJob(watcher, "closed-run", j -> j.getState() == JobState.JOB_STATE_CANCELLED, "the closed client's Run job was not cancelled");
            assertEquals(300, watcher.await(sub.jobId(), WAIT).getProofsCount());
        }
    }

    /**
     * An input.json UTF-8 cannot carry (a lone surrogate, which Java's encoder would send as '?',
     * another signal's name) is refused by the client before any call, naming partition and place.
     */
    @Test
    void inputsUtf8CannotCarryAreRefusedByTheClient() throws Exception {
        try (Daemon d = daemon(b -> b); CuzkClient c = d.client(null)) {
            List<String> inputs = List.of("{\"in\": \"1\"}", "{\"i\ud800n\": \"1\"}");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.submitInputs("poseidon", inputs, Priority.PRIORITY_NORMAL, null));
            assertEquals("the input.json of partition 1 has a lone UTF-16 surrogate at character 3: it cannot be sent as UTF-8",
                    e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> c.runInputs("poseidon", List.of("{\"in\": \"1\udc00\"}"), Priority.PRIORITY_NORMAL, null, WAIT, null));
            assertEquals(0, c.status().getJobsSubmitted(), "no job was made");
        }
    }

    /**
     * A retry needs no thread of the common pool: with all its workers blocked by the caller (one
     * on a 2-core machine), a job whose daemon is not there yet is placed once it is.
     */
    @Test
    void retriesRunWhileTheCommonPoolIsBlocked() throws Exception {
        String name = "cuzk-late-" + NAMES.incrementAndGet();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        int workers = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism();
        for (int i = 0; i < workers; i++) {
            CompletableFuture.runAsync(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        CuzkServer late = null;
        try (CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName(name).build(), null, 30, Duration.ofMillis(100))) {
            CompletableFuture<CuzkClient.Proved> f = c.runAsync("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, null, WAIT, null);
            Thread.sleep(300); // the first attempts find no daemon: UNAVAILABLE
            assertFalse(f.isDone(), "placed with no daemon: " + f);
            late = CuzkServer.builder().inProcess(name).keys(keys).start();
            CuzkClient.Proved p = f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(p.attempts() > 1, "attempts: " + p.attempts());
            assertProof(p.result().getProofs(0));
        } finally {
            release.countDown();
            if (late != null) {
                late.close();
            }
        }
    }

    /** A list of daemons that is not one: a clear message naming the entry. */
    @Test
    void aBadDaemonListIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuzkClient.builder("127.0.0.1:1,localhost").build());
        assertEquals("daemon localhost: expected HOST:PORT", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CuzkClient.builder("127.0.0.1:1,h:99999").build());
        assertEquals("daemon h:99999: the port must be 1..65535", e.getMessage());
    }
}
