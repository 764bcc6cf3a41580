package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.cuzk.Curve;
import io.cuzk.api.CuzkClient;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.api.v1.Priority;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code bin/cuzk serve} on 127.0.0.1 (a port the system picks), fed by concurrent clients:
 * every proof it returns is checked by snarkjs, every submission gets exactly one result, and it
 * behaves under cancel, resubmission, a bad token, SIGTERM with jobs in flight and kill -9. Every
 * wait is bounded.
 */
class DaemonIT {
    static final Duration WAIT = Duration.ofMinutes(3);
    static final String TOKEN = "it-token-5f0c1e";

    @TempDir
    static Path work;
    static Path keys;
    static Map<String, Path> vks = new ConcurrentHashMap<>();
    static Map<String, byte[]> witnesses = new ConcurrentHashMap<>();
    static Daemon daemon;

    record Daemon(Process process, int port, Path log) {
        String target() {
            return "127.0.0.1:" + port;
        }

        CuzkClient client(String token) throws IOException {
            return CuzkClient.builder(target()).token(token).build();
        }

        String output() throws IOException {
            return Files.readString(log);
        }
    }

    static Daemon start(String name, String... extra) throws Exception {
        Path portFile = work.resolve(name + ".port"), log = work.resolve(name + ".log");
        Files.deleteIfExists(portFile);
        List<String> cmd = new ArrayList<>(List.of(LauncherIT.repo().resolve("bin/cuzk").toString(), "serve", "--keys", keys.toString(),
                "--listen", "127.0.0.1:0", "--port-file", portFile.toString(), "--token-file", work.resolve("token").toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(portFile)) {
            assertTrue(p.isAlive(), "the daemon ended: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the daemon did not start in 60 s: " + Files.readString(log));
            Thread.sleep(50);
        }
        return new Daemon(p, Integer.parseInt(Files.readString(portFile).strip()), log);
    }

    @BeforeAll
    static void setUp() throws Exception {
        keys = Files.createDirectories(work.resolve("keys"));
        Files.writeString(work.resolve("token"), TOKEN + "\n");
        Path sample = LauncherIT.repo().resolve("samples/poseidon-bn254");
        Files.copy(sample.resolve("circuit.zkey"), keys.resolve("poseidon.zkey"));
        vks.put("poseidon", sample.resolve("verification_key.json"));
        witnesses.put("poseidon", Files.readAllBytes(sample.resolve("witness.wtns")));
        for (Curve c : Curve.values()) {
            Path d = Circuits.dir(c, "chain_main");
            String name = "chain-" + c.snarkjsName();
            Files.copy(d.resolve("circuit.zkey"), keys.resolve(name + ".zkey"));
            vks.put(name, d.resolve("verification_key.json"));
            witnesses.put(name, Files.readAllBytes(d.resolve("witness.wtns")));
        }
        daemon = start("main", "--drain-timeout-s", "5");
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (daemon != null && daemon.process().isAlive()) {
            daemon.process().destroy();
            if (!daemon.process().waitFor(30, TimeUnit.SECONDS)) {
                daemon.process().destroyForcibly();
            }
        }
    }

    /** Every proof checked by snarkjs, one node process per key. */
    static void verifyAll(String key, List<PartitionProof> proofs) throws IOException {
        snarkjsVerifies(vks.get(key), proofs, work);
    }

    /** Every proof of the key whose verification_key.json is vk checked by snarkjs in one node process (a list file in dir). */
    static void snarkjsVerifies(Path vk, List<PartitionProof> proofs, Path dir) throws IOException {
        ObjectMapper m = new ObjectMapper();
        ArrayNode list = m.createArrayNode();
        for (PartitionProof p : proofs) {
            list.addObject().put("proof", p.getProofJson()).put("public", p.getPublicJson());
        }
        Path f = Files.createTempFile(dir, "proofs", ".json");
        Files.writeString(f, m.writeValueAsString(list));
        String out = Node.run("verify_many.mjs", vk.toString(), f.toString()).strip();
        assertEquals("ok " + proofs.size(), out, vk.toString());
    }

    /** 8 clients x 25 jobs over three keys on both curves: 200 results, one per submission, all valid. */
    @Test
    void eightClientsTwentyFiveProofsEach() throws Exception {
        List<String> names = List.of("poseidon", "chain-bn128", "chain-bls12381");
        Map<String, List<PartitionProof>> byKey = new ConcurrentHashMap<>();
        Set<Long> jobIds = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> clients = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                int client = c;
                clients.add(pool.submit(() -> {
                    int results = 0;
                    try (CuzkClient cl = daemon.client(TOKEN)) {
                        for (int i = 0; i < 25; i++) {
                            String key = names.get((client + i) % names.size());
                            Priority pr = Priority.forNumber(1 + (client + i) % 4);
                            JobResult r;
                            if (i % 2 == 0) {
                                r = cl.prove(key, List.of(witnesses.get(key)), pr, WAIT);
                            } else {
                                CuzkClient.Submitted s = cl.submit(key, List.of(witnesses.get(key)), pr, "c" + client + "-j" + i);
                                assertFalse(s.existing());
                                r = cl.await(s.jobId(), WAIT);
                            }
                            assertTrue(jobIds.add(r.getJobId()), "job " + r.getJobId() + " returned twice");
                            assertEquals(1, r.getProofsCount());
                            byKey.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>())).add(r.getProofs(0));
                            results++;
                        }
                    }
                    return results;
                }));
            }
            for (Future<Integer> f : clients) {
                assertEquals(25, f.get(10, TimeUnit.MINUTES));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(200, jobIds.size());
        int total = 0;
        for (String k : names) {
            verifyAll(k, byKey.get(k));
            total += byKey.get(k).size();
        }
        assertEquals(200, total);
    }

    @Test
    void cancelResubmitAndABadToken() throws Exception {
        try (CuzkClient c = daemon.client(TOKEN); CuzkClient wrong = daemon.client("not-" + TOKEN)) {
            byte[] w = witnesses.get("poseidon");
            CuzkClient.Submitted big = c.submit("poseidon", Collections.nCopies(300, w), Priority.PRIORITY_LOW, null);
            CompletableFuture<JobResult> waiting = c.awaitAsync(big.jobId());
            assertTrue(c.cancel(big.jobId()).getCancelled());
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> waiting.get(1, TimeUnit.MINUTES));
            assertEquals(JobState.JOB_STATE_CANCELLED, ((CuzkClient.JobFailedException) e.getCause()).state());

            CuzkClient.Submitted first = c.submit("chain-bn128", List.of(witnesses.get("chain-bn128")), Priority.PRIORITY_NORMAL, "resubmit-1");
            CuzkClient.Submitted again = c.submit("chain-bn128", List.of(witnesses.get("chain-bn128")), Priority.PRIORITY_NORMAL, "resubmit-1");
            assertEquals(first.jobId(), again.jobId());
            assertTrue(again.existing());
            JobResult r = c.await(first.jobId(), WAIT);
            verifyAll("chain-bn128", r.getProofsList());

            StatusRuntimeException bad = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class, wrong::status);
            assertEquals(io.grpc.Status.Code.UNAUTHENTICATED, bad.getStatus().getCode());
            // the command line without the token: one line, exit status 1
            Process p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "prove", "--server", daemon.target(), "poseidon",
                    LauncherIT.repo().resolve("samples/poseidon-bn254/witness.wtns").toString(), work.resolve("p.json").toString(),
                    work.resolve("pub.json").toString()).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, p.exitValue(), err);
            assertTrue(err.startsWith("cuzk prove: the daemon at " + daemon.target() + " refused the call") && err.lines().count() == 1, err);
            assertFalse(Files.exists(work.resolve("p.json")), "nothing written");
            // with it, through the command line, a proof snarkjs accepts
            p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "prove", "-q", "--progress", "always", "--server",
                    daemon.target(), "--token-file", work.resolve("token").toString(), "poseidon",
                    LauncherIT.repo().resolve("samples/poseidon-bn254/witness.wtns").toString(), work.resolve("p.json").toString(),
                    work.resolve("pub.json").toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            // --progress always: a line rewritten in place while it runs, wiped at the end (-q: nothing else)
            assertTrue(out.startsWith("\rcuzk prove: poseidon on " + daemon.target() + ": ") && out.endsWith("\r"),
                    out);
            Node.Result v = Node.snarkjs("groth16", "verify", vks.get("poseidon").toString(), work.resolve("pub.json").toString(),
                    work.resolve("p.json").toString());
            assertTrue(v.out().contains("OK!"), v.out() + v.err());
            // status through the command line
            p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "status", "--json", "--server", daemon.target(),
                    "--token-file", work.resolve("token").toString()).start();
            String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), json);
            assertTrue(new ObjectMapper().readTree(json).path("jobsCancelled").asLong() >= 1, json);
            // the view refreshed like top: twice, each after clearing the screen
            p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "status", "--watch", "--count", "2", "--interval-s", "1",
                    "--server", daemon.target(), "--token-file", work.resolve("token").toString()).start();
            String view = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), view);
            assertEquals(2, view.split("\u001b\\[H\u001b\\[2J", -1).length - 1, view);
            assertTrue(view.contains("device-0-cpu") && view.contains("chain-bls12381") && view.contains("poseidon"), view);
        }
    }

    /**
     * SIGTERM with jobs in flight: the daemon stops taking jobs, finishes the short one, cancels the
     * long one at the drain time and tells its client, then exits 0. kill -9 of another daemon:
     * its waiting client sees UNAVAILABLE at once.
     */
    @Test
    void sigtermDrainsAndKillNineIsSeen() throws Exception {
        Daemon d = start("drain", "--drain-timeout-s", "2");
        try (CuzkClient c = d.client(TOKEN)) {
            byte[] w = witnesses.get("poseidon");
            CuzkClient.Submitted longJob = c.submit("poseidon", Collections.nCopies(2000, w), Priority.PRIORITY_LOW, null);
            CuzkClient.Submitted shortJob = c.submit("poseidon", List.of(w, w), Priority.PRIORITY_CRITICAL, null);
            CompletableFuture<JobResult> longResult = c.awaitAsync(longJob.jobId()), shortResult = c.awaitAsync(shortJob.jobId());
            while (c.status().getPartitionsDone() < 3) {
                Thread.sleep(20);
            }
            d.process().destroy(); // SIGTERM
            assertEquals(2, shortResult.get(1, TimeUnit.MINUTES).getProofsCount());
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> longResult.get(1, TimeUnit.MINUTES));
            assertTrue(e.getCause() instanceof CuzkClient.JobFailedException f && f.state() == JobState.JOB_STATE_CANCELLED
                    && f.getMessage().contains("shut down"), String.valueOf(e.getCause()));
            assertTrue(d.process().waitFor(60, TimeUnit.SECONDS), "the daemon did not exit after its drain");
            // the JVM ends a run that a signal stopped with 128 + 15, after its shutdown hooks (the drain)
            assertTrue(d.process().exitValue() == 143 || d.process().exitValue() == 0, d.process().exitValue() + ": " + d.output());
            assertTrue(d.output().contains("stopping: draining") && d.output().contains("1 jobs cancelled"), d.output());
        } finally {
            d.process().destroyForcibly();
        }

        Daemon k = start("kill");
        try (CuzkClient c = k.client(TOKEN)) {
            CuzkClient.Submitted job = c.submit("poseidon", Collections.nCopies(2000, witnesses.get("poseidon")), Priority.PRIORITY_LOW, null);
            CompletableFuture<JobResult> waiting = c.awaitAsync(job.jobId());
            while (c.status().getPartitionsDone() < 1) {
                Thread.sleep(20);
            }
            k.process().destroyForcibly(); // SIGKILL
            long t0 = System.nanoTime();
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> waiting.get(30, TimeUnit.SECONDS));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(e.getCause() instanceof StatusRuntimeException s && s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE,
                    String.valueOf(e.getCause()));
            assertTrue(seconds < 10, "the client learned of the daemon's death after " + seconds + " s");
            StatusRuntimeException next = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class, c::status);
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, next.getStatus().getCode());
        } finally {
            k.process().destroyForcibly();
        }
    }
}
