package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.api.CuzkClient;
import io.cuzk.api.v1.JobEvent;
import io.cuzk.api.v1.JobState;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.api.v1.Priority;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.VerificationKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A farm on one machine: three real {@code bin/cuzk serve} processes on 127.0.0.1 (different
 * ports, thread counts and device workers; token required) and one {@link CuzkClient} given the
 * three as a list, balancing with gRPC's weighted_round_robin on the daemons' ORCA load reports.
 * Over the bundled sample: 300 jobs, each with exactly one result, every proof verified (all by
 * the project's verifier, a sample across the daemons by snarkjs); the slow daemon gets measurably
 * fewer; kill -9 of a daemon mid-run loses no job (its jobs are placed again under their client job
 * ids); the daemon started again on its port is used again; a daemon drained with SIGTERM takes no
 * new job and finishes the ones it had. Loopback only, every wait bounded.
 */
class FarmIT {
    static final String TOKEN = "farm-token-93a1";
    static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    static Path work;
    static Path keys;
    static VerificationKey vk;
    static Path vkFile;
    static byte[] wtns;
    static final List<Daemon> started = new ArrayList<>();

    record Daemon(String name, Process process, int port, Path log) {
        String target() {
            return "127.0.0.1:" + port;
        }

        String output() throws IOException {
            return Files.readString(log);
        }
    }

    @BeforeAll
    static void setUp() throws IOException {
        keys = Files.createDirectories(work.resolve("keys"));
        Path sample = LauncherIT.repo().resolve("samples/poseidon-bn254");
        Files.copy(sample.resolve("circuit.zkey"), keys.resolve("poseidon.zkey"));
        vkFile = sample.resolve("verification_key.json");
        vk = VerificationKey.read(vkFile);
        wtns = Files.readAllBytes(sample.resolve("witness.wtns"));
        Files.writeString(work.resolve("token"), TOKEN + "\n");
    }

    @AfterAll
    static void tearDown() throws InterruptedException {
        for (Daemon d : started) {
            d.process().destroyForcibly();
            d.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Starts a daemon (port 0: any free one) without waiting for it. */
    static Process launch(String name, int port, String... extra) throws IOException {
        Path portFile = work.resolve(name + ".port");
        Files.deleteIfExists(portFile);
        List<String> cmd = new ArrayList<>();
        if (name.startsWith("slow")) {
            cmd.addAll(List.of("nice", "-n", "10")); // a slower machine: it yields the shared cores to the others
        }
        cmd.addAll(List.of(LauncherIT.repo().resolve("bin/cuzk").toString(), "serve", "--keys", keys.toString(),
                "--listen", "127.0.0.1:" + port, "--port-file", portFile.toString(), "--token-file", work.resolve("token").toString(),
                "--name", name));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(work.resolve(name + ".log").toFile()).start();
    }

    static Daemon ready(String name, Process p) throws Exception {
        Path portFile = work.resolve(name + ".port"), log = work.resolve(name + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(portFile) || Files.readString(portFile).isBlank()) {
            assertTrue(p.isAlive(), name + " ended: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, name + " did not start in 90 s: " + Files.readString(log));
            Thread.sleep(50);
        }
        Daemon d = new Daemon(name, p, Integer.parseInt(Files.readString(portFile).strip()), log);
        started.add(d);
        return d;
    }

    /** A job's outcome as its caller saw it. */
    record Outcome(String clientJobId, long submittedNanos, CuzkClient.Proved proved) {}

    /**
     * Submits jobs (one partition of the sample each), at most inFlight at a time, as provers
     * feeding a farm do; counts each job's final events (exactly one DONE per job, whatever the
     * attempts). afterEach runs after each submission on the submitting thread.
     */
    static CompletableFuture<List<Outcome>> batch(CuzkClient client, String prefix, int jobs, int inFlight,
            Map<String, AtomicInteger> doneEvents, java.util.function.IntConsumer afterEach) {
        return batch(client, prefix, jobs, inFlight, doneEvents, afterEach, new ConcurrentHashMap<>());
    }

    /**
     * As above; following also holds, for each job the client has not finished yet, the daemon
     * named by its latest event.
     */
    static CompletableFuture<List<Outcome>> batch(CuzkClient client, String prefix, int jobs, int inFlight,
            Map<String, AtomicInteger> doneEvents, java.util.function.IntConsumer afterEach, Map<String, String> following) {
        // the submitting loop blocks on its window: a thread of its own, not one of the common pool's
        java.util.concurrent.ExecutorService submitter = java.util.concurrent.Executors.newSingleThreadExecutor();
        CompletableFuture<List<Outcome>> done = CompletableFuture.supplyAsync(() -> {
            Semaphore window = new Semaphore(inFlight);
            List<CompletableFuture<Outcome>> all = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                String id = prefix + "-" + j;
                doneEvents.put(id, new AtomicInteger());
                window.acquireUninterruptibly();
                long t = System.nanoTime();
                all.add(client.runAsync("poseidon", List.of(wtns), Priority.PRIORITY_NORMAL, id, JOB_TIMEOUT, (JobEvent e) -> {
                    following.put(id, e.getDaemon());
                    if (e.getState() == JobState.JOB_STATE_DONE) {
                        doneEvents.get(id).incrementAndGet();
                    }
                }).whenComplete((r, e) -> {
                    following.remove(id);
                    window.release();
                }).thenApply(r -> new Outcome(id, t, r)));
                afterEach.accept(j);
            }
            List<Outcome> out = new ArrayList<>();
            for (CompletableFuture<Outcome> f : all) {
                out.add(f.join());
            }
            return out;
        }, submitter);
        done.whenComplete((v, e) -> submitter.shutdown());
        return done;
    }

    static void signal(String name, Process p) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + name, String.valueOf(p.pid())).redirectErrorStream(true).start();
        assertTrue(k.waitFor(10, TimeUnit.SECONDS) && k.exitValue() == 0, "kill -" + name + " " + p.pid());
    }

    static Map<String, Integer> byDaemon(List<Outcome> outcomes) {
        Map<String, Integer> m = new TreeMap<>();
        for (Outcome o : outcomes) {
            m.merge(o.proved().daemon(), 1, Integer::sum);
        }
        return m;
    }

    /** Every job once, one DONE event each, one proof each that the verifier accepts. */
    static void checkAll(List<Outcome> outcomes, int jobs, Map<String, AtomicInteger> doneEvents) {
        assertEquals(jobs, outcomes.size());
        assertEquals(jobs, outcomes.stream().map(Outcome::clientJobId).distinct().count(), "one outcome per job");
        for (Outcome o : outcomes) {
            assertEquals(1, doneEvents.get(o.clientJobId()).get(), o.clientJobId() + ": exactly one result");
            assertEquals(1, o.proved().result().getProofsCount());
            PartitionProof p = o.proved().result().getProofs(0);
            Proof proof = Proof.parse("proof of " + o.clientJobId(), p.getProofJson(), "public of " + o.clientJobId(), p.getPublicJson());
            assertTrue(Groth16Verifier.verify(vk, proof), o.clientJobId() + " from " + o.proved().daemon() + " verifies");
        }
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void threeDaemonsOneClient() throws Exception {
        // two fast daemons and a slow one: a device worker and a native thread where the others have
        // two each, and at nice 10 (on 2 shared cores thread counts alone make it only somewhat slower)
        Process pa = launch("fast-a", 0, "--workers-per-device", "2", "--threads", "2");
        Process pb = launch("fast-b", 0, "--workers-per-device", "2", "--threads", "2");
        Process pc = launch("slow-c", 0, "--workers-per-device", "1", "--threads", "1", "--drain-timeout-s", "60");
        Daemon a = ready("fast-a", pa), b = ready("fast-b", pb), c = ready("slow-c", pc);
        String list = a.target() + "," + b.target() + "," + c.target();
        try (CuzkClient client = CuzkClient.builder(list).token(TOKEN).failover(10, Duration.ofMillis(200)).build()) {
            // 1. 300 jobs: each exactly once and valid; the slow daemon measurably fewer
            Map<String, AtomicInteger> done = new ConcurrentHashMap<>();
            List<Outcome> first = batch(client, "spread", 300, 12, done, j -> { }).get(4, TimeUnit.MINUTES);
            checkAll(first, 300, done);
            Map<String, Integer> spread = byDaemon(first);
            int fa = spread.getOrDefault("fast-a", 0), fb = spread.getOrDefault("fast-b", 0), sc = spread.getOrDefault("slow-c", 0);
            System.out.println("FarmIT: 300 jobs over three daemons: " + spread);
            assertEquals(300, fa + fb + sc, spread.toString());
            assertTrue(fa > 0 && fb > 0 && sc > 0, "every daemon takes jobs: " + spread);
            assertTrue(sc < 0.8 * (fa + fb) / 2.0, "the slow daemon gets measurably fewer jobs: " + spread);
            // a sample across the daemons, checked by snarkjs as well
            verifyWithSnarkjs(first.stream().filter(o -> o.proved().daemon().equals("fast-a")).limit(4).toList(),
                    first.stream().filter(o -> o.proved().daemon().equals("fast-b")).limit(4).toList(),
                    first.stream().filter(o -> o.proved().daemon().equals("slow-c")).limit(4).toList());

            // 2. kill -9 of fast-b while it holds jobs: none lost, its jobs placed again elsewhere
            Map<String, AtomicInteger> done2 = new ConcurrentHashMap<>();
            Map<String, String> following = new ConcurrentHashMap<>();
            java.util.concurrent.CountDownLatch submitted = new java.util.concurrent.CountDownLatch(40);
            CompletableFuture<List<Outcome>> second = batch(client, "kill", 150, 12, done2, j -> submitted.countDown(), following);
            assertTrue(submitted.await(2, TimeUnit.MINUTES));
            // fast-b is frozen (SIGSTOP) first and killed only if the client still follows a job on
            // it then: a frozen daemon finishes nothing, so that job is certainly lost with it (a
            // job seen held in a status call could finish before the kill: one proof is quick)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                assertTrue(System.nanoTime() < deadline, "fast-b held no job to lose");
                signal("STOP", b.process());
                Thread.sleep(200); // what fast-b sent before it stopped reaches the client
                if (following.containsValue("fast-b")) {
                    break;
                }
                signal("CONT", b.process());
                Thread.sleep(20);
            }
            b.process().destroyForcibly(); // SIGKILL, with jobs on it
            assertTrue(b.process().waitFor(30, TimeUnit.SECONDS));
            List<Outcome> killed = second.get(4, TimeUnit.MINUTES);
            checkAll(killed, 150, done2);
            List<Outcome> again = killed.stream().filter(o -> o.proved().attempts() > 1).toList();
            System.out.println("FarmIT: kill -9 of fast-b: " + byDaemon(killed) + ", " + again.size() + " jobs placed again");
            assertTrue(!again.isEmpty(), "the jobs fast-b held were placed again: " + byDaemon(killed));
            assertTrue(again.stream().noneMatch(o -> o.proved().daemon().equals("fast-b")), "placed on a daemon alive");

            // 3. fast-b back on its port: used again (within gRPC's reconnect backoff)
            Daemon b2 = ready("fast-b", launch("fast-b", b.port(), "--workers-per-device", "2", "--threads", "2"));
            int backOnB = 0;
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            for (int round = 0; backOnB == 0; round++) {
                assertTrue(System.nanoTime() < deadline, "the daemon started again got no job in 90 s");
                Map<String, AtomicInteger> done3 = new ConcurrentHashMap<>();
                List<Outcome> third = batch(client, "back-" + round, 30, 6, done3, j -> { }).get(2, TimeUnit.MINUTES);
                checkAll(third, 30, done3);
                backOnB = byDaemon(third).getOrDefault("fast-b", 0);
                System.out.println("FarmIT: fast-b started again, round " + round + ": " + byDaemon(third));
            }

            // 4. SIGTERM of slow-c mid-run: it finishes what it accepted, and no job reaches it afterwards
            Map<String, AtomicInteger> done4 = new ConcurrentHashMap<>();
            java.util.concurrent.CountDownLatch started4 = new java.util.concurrent.CountDownLatch(30);
            CompletableFuture<List<Outcome>> fourth = batch(client, "drain", 300, 12, done4, j -> started4.countDown());
            assertTrue(started4.await(2, TimeUnit.MINUTES));
            long term = System.nanoTime();
            c.process().destroy(); // SIGTERM
            List<Outcome> drained = fourth.get(4, TimeUnit.MINUTES);
            checkAll(drained, 300, done4);
            // the drain flag is set by the JVM's shutdown hook a moment after the signal: 2 s of slack
            List<Outcome> late = drained.stream().filter(o -> o.submittedNanos() > term + TimeUnit.SECONDS.toNanos(2)).toList();
            System.out.println("FarmIT: SIGTERM of slow-c: " + byDaemon(drained) + "; submitted 2 s after it: " + byDaemon(late));
            assertTrue(late.size() > 20, "jobs submitted after the drain began: " + late.size());
            assertTrue(late.stream().noneMatch(o -> o.proved().daemon().equals("slow-c")), "the draining daemon took a new job: "
                    + byDaemon(late));
            // and no call even tried it: health checking took it out of the picks (a Run it refused would have been placed again)
            assertTrue(late.stream().allMatch(o -> o.proved().attempts() == 1), "a job was sent to the draining daemon first: "
                    + late.stream().filter(o -> o.proved().attempts() > 1).map(Outcome::clientJobId).toList());
            assertTrue(c.process().waitFor(90, TimeUnit.SECONDS), "slow-c did not exit after its drain");
            assertTrue(c.process().exitValue() == 143 || c.process().exitValue() == 0, c.process().exitValue() + ": " + c.output());
            assertTrue(c.output().contains("stopping: draining") && !c.output().contains("cancelled"), c.output());
            assertTrue(a.process().isAlive() && b2.process().isAlive());

            // the command line over a list with a dead entry: the proof comes from a live daemon
            String listed = a.target() + "," + b2.target() + "," + c.target();
            Path proofJson = work.resolve("proof.json"), publicJson = work.resolve("public.json");
            Process p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "prove", "--server", listed, "--token-file",
                    work.resolve("token").toString(), "poseidon", LauncherIT.repo().resolve("samples/poseidon-bn254/witness.wtns").toString(),
                    proofJson.toString(), publicJson.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(2, TimeUnit.MINUTES));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith("poseidon on fast-a: job ") || out.startsWith("poseidon on fast-b: job "), out);
            assertTrue(Groth16Verifier.verify(vk, Proof.read(proofJson, publicJson)));
            // each listed daemon's status, as a JSON array
            p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "status", "--json", "--server",
                    a.target() + "," + b2.target(), "--token-file", work.resolve("token").toString()).start();
            String json = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(1, TimeUnit.MINUTES));
            assertEquals(0, p.exitValue(), json);
            com.fasterxml.jackson.databind.JsonNode statuses = new ObjectMapper().readTree(json);
            assertEquals(List.of("fast-a", "fast-b"), List.of(statuses.get(0).path("name").asText(), statuses.get(1).path("name").asText()));
            assertTrue(statuses.get(0).path("load").path("qps").asDouble() >= 0 && statuses.get(0).path("load").has("windowSeconds"), json);
        }
    }

    @SafeVarargs
    static void verifyWithSnarkjs(List<Outcome>... groups) throws IOException {
        List<PartitionProof> proofs = new ArrayList<>();
        for (List<Outcome> g : groups) {
            assertTrue(!g.isEmpty(), "a daemon proved nothing to check");
            for (Outcome o : g) {
                proofs.add(o.proved().result().getProofs(0));
            }
        }
        DaemonIT.snarkjsVerifies(vkFile, proofs, work);
    }
}
