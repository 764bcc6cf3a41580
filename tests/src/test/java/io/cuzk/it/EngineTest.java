package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.engine.BudgetExceededException;
import io.cuzk.engine.Config;
import io.cuzk.engine.ContendedBaseline;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.Job;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.PartitionFailedException;
import io.cuzk.engine.PartitionState;
import io.cuzk.engine.Phase;
import io.cuzk.engine.Priority;
import io.cuzk.engine.TrackerMode;
import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine under concurrency, on real circuits: priorities, cancellation, failure isolation,
 * the memory budget and the arenas, many submitters; proofs are checked with snarkjs.
 */
class EngineTest {
    static final Duration WAIT = Duration.ofMinutes(5);

    @TempDir
    Path tmp;

    static Path dir(String name) {
        return Circuits.dir(Curve.BN254, name);
    }

    static Path zkey(String name) {
        return dir(name).resolve("circuit.zkey");
    }

    static Path wtns(String name) {
        return dir(name).resolve("witness.wtns");
    }

    /** The reservation of one partition of a circuit, as the engine computes it. */
    static long reservation(String name) throws IOException {
        try (ProvingKey k = ProvingKey.read(zkey(name))) {
            long n = k.domainSize();
            return 3 * block(n * 32) + block(k.nVars() * 32L) + block(n * 32);
        }
    }

    static long block(long bytes) {
        return Math.max(1L << 16, Long.highestOneBit(bytes - 1) << 1);
    }

    static void verify(String circuit, Proof proof, Path tmp) throws IOException {
        Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
        proof.write(pj, pub);
        Node.Result r = Node.snarkjs("groth16", "verify", dir(circuit).resolve("verification_key.json").toString(), pub.toString(),
                pj.toString());
        assertTrue(r.out().contains("OK!"), "snarkjs: " + r.out() + r.err());
    }

    static void assertAllReturned(Engine e) {
        EngineStatus s = e.status();
        assertEquals(0, s.memory().budgetUsed(), "budget used at rest");
        assertEquals(0, s.memory().outstandingBlocks(), "arenas still open");
        assertTrue(s.memory().budgetPeak() <= s.memory().budgetCapacity(), "the budget was exceeded");
        for (PartitionState st : s.queues().keySet()) {
            assertEquals(0, s.queues().get(st), "partitions left in " + st);
        }
    }

    @Test
    void provesJobsWhoseProofsSnarkjsAccepts() throws Exception {
        try (Engine e = Engine.start(Config.builder().build())) {
            JobHandle chain = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main"), wtns("chain_main")), Priority.NORMAL));
            JobHandle multi = e.submit(Job.ofFiles(zkey("multi_main"), List.of(wtns("multi_main")), Priority.HIGH));
            List<Proof> cp = chain.await(WAIT);
            assertEquals(2, cp.size());
            verify("chain_main", cp.get(0), tmp);
            verify("chain_main", cp.get(1), tmp);
            verify("multi_main", multi.await(WAIT).get(0), tmp);
            assertEquals(List.of(PartitionState.DONE, PartitionState.DONE), chain.partitionStates());
            for (var times : chain.partitionTimes()) {
                assertEquals(List.of(Phase.QUEUED, Phase.SYNTHESIS, Phase.READY, Phase.DEVICE_QUEUE, Phase.DEVICE, Phase.FINALIZE,
                        Phase.TOTAL), List.copyOf(times.keySet()));
                assertTrue(times.get(Phase.DEVICE) > 0 && times.get(Phase.SYNTHESIS) > 0, times.toString());
            }
            assertEquals(2, e.keyLoads());
            EngineStatus s = e.status();
            assertEquals(3, s.counters().partitionsDone());
            assertEquals(3, s.devices().get(0).partitions());
            assertTrue(s.phasesMs().get(Phase.DEVICE).count() == 3);
            assertAllReturned(e);
        }
    }

    /**
     * With memory for one partition at a time, partitions submitted while the first runs are
     * dispatched strictly by priority, then by submission. The first job is submitted alone and
     * the others only once it holds the memory; if it reached its finalizer before they were all
     * submitted (the scenario did not happen), the round is repeated.
     */
    @Test
    void prioritiesAreHonoured() throws Exception {
        Config cfg = Config.builder().memoryBudgetBytes(reservation("chain_main")).synthesisWorkers(1).workersPerDevice(1).build();
        Priority[] later = {Priority.NORMAL, Priority.LOW, Priority.CRITICAL, Priority.HIGH, Priority.NORMAL, Priority.CRITICAL};
        List<String> expected = List.of("first", "CRITICAL#2", "CRITICAL#5", "HIGH#3", "NORMAL#0", "NORMAL#4", "LOW#1");
        try (Engine e = Engine.start(cfg)) {
            for (int round = 0; ; round++) {
                assertTrue(round < 5, "the first job kept finishing before the others were submitted");
                List<String> order = Collections.synchronizedList(new ArrayList<>());
                JobHandle first = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main")), Priority.LOW));
                first.future().thenRun(() -> order.add("first"));
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (first.partitionStates().get(0) == PartitionState.QUEUED) {
                    assertTrue(System.nanoTime() < deadline, "the first job was never dispatched");
                    Thread.onSpinWait();
                }
                List<JobHandle> hs = new ArrayList<>();
                for (int i = 0; i < later.length; i++) {
                    String name = later[i] + "#" + i;
                    JobHandle h = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main")), later[i]));
                    h.future().thenRun(() -> order.add(name));
                    hs.add(h);
                }
                // the first still held its memory (returned at finalize) when the last was submitted
                PartitionState firstState = first.partitionStates().get(0);
                boolean scenarioHeld = firstState.compareTo(PartitionState.FINALIZING) < 0;
                first.await(WAIT);
                for (JobHandle h : hs) {
                    h.await(WAIT);
                }
                if (scenarioHeld) {
                    assertEquals(expected, order);
                    break;
                }
            }
            assertAllReturned(e);
        }
    }

    @Test
    void cancellationMidFlightDropsTheRestAndReturnsMemory() throws Exception {
        Config cfg = Config.builder().memoryBudgetBytes(2 * reservation("poseidon_main")).build();
        try (Engine e = Engine.start(cfg)) {
            List<Path> many = Collections.nCopies(40, wtns("poseidon_main"));
            JobHandle big = e.submit(Job.ofFiles(zkey("poseidon_main"), many, Priority.NORMAL));
            JobHandle other = e.submit(Job.ofFiles(zkey("multi_main"), List.of(wtns("multi_main")), Priority.LOW));
            while (big.partitionStates().stream().filter(s -> s == PartitionState.DONE).count() < 2) {
                Thread.sleep(5);
            }
            assertTrue(big.cancel());
            assertEquals("job " + big.id() + " was cancelled", assertThrows(CancellationException.class, () -> big.await(WAIT)).getMessage(),
                    "the job's reason, not the JDK's \"get\"");
            List<PartitionState> states = big.partitionStates();
            assertTrue(states.contains(PartitionState.CANCELLED), states.toString());
            assertTrue(states.stream().allMatch(s -> s == PartitionState.DONE || s == PartitionState.CANCELLED), states.toString());
            verify("multi_main", other.await(WAIT).get(0), tmp);
            assertTrue(!big.cancel(), "a second cancel does nothing");
            // partitions that were on the device finish their kernels, then give everything back
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (e.status().memory().budgetUsed() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(big.partitionStates().stream().allMatch(PartitionState::terminal), big.partitionStates().toString());
            // released only once every partition has given its memory back: a caller's witnesses may be closed then
            big.released().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(0, e.status().memory().budgetUsed());
            assertAllReturned(e);
            assertTrue(e.status().counters().partitionsCancelled() >= 30, e.status().counters().toString());
        }
    }

    /** A job whose witness belongs to another circuit fails; the jobs around it are proved. */
    @Test
    void oneFailingPartitionLeavesOtherJobsAlone() throws Exception {
        Path broken = tmp.resolve("broken.wtns");
        byte[] w = Files.readAllBytes(wtns("chain_main"));
        Files.write(broken, java.util.Arrays.copyOf(w, w.length - 7)); // truncated
        try (Engine e = Engine.start(Config.builder().build())) {
            JobHandle before = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main"), wtns("chain_main")), Priority.NORMAL));
            JobHandle wrongCircuit = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main"), wtns("multi_main"),
                    wtns("chain_main")), Priority.HIGH));
            JobHandle truncated = e.submit(Job.ofFiles(zkey("chain_main"), List.of(broken), Priority.CRITICAL));
            JobHandle after = e.submit(Job.ofFiles(zkey("chain_main"), List.of(wtns("chain_main")), Priority.LOW));
            ExecutionException x = assertThrows(ExecutionException.class, () -> wrongCircuit.await(WAIT));
            PartitionFailedException pf = assertInstanceOf(PartitionFailedException.class, x.getCause());
            assertEquals(1, pf.partition());
            assertInstanceOf(FormatException.class, pf.getCause());
            assertTrue(pf.getMessage().contains("the witness has"), pf.getMessage());
            x = assertThrows(ExecutionException.class, () -> truncated.await(WAIT));
            assertTrue(x.getCause().getCause().getMessage().contains("truncated"), x.getCause().getMessage());
            for (Proof p : before.await(WAIT)) {
                verify("chain_main", p, tmp);
            }
            verify("chain_main", after.await(WAIT).get(0), tmp);
            assertTrue(wrongCircuit.partitionStates().contains(PartitionState.FAILED));
            assertAllReturned(e);
        }
    }

    @Test
    void aPartitionLargerThanTheBudgetIsRefusedAtSubmit() throws Exception {
        try (Engine e = Engine.start(Config.builder().memoryBudgetBytes(200_000).build())) {
            BudgetExceededException x = assertThrows(BudgetExceededException.class,
                    () -> e.submit(Job.ofFiles(zkey("poseidon_main"), List.of(wtns("poseidon_main")), Priority.NORMAL)));
            assertTrue(x.getMessage().contains("memory budget is 200000 bytes"), x.getMessage());
            assertAllReturned(e);
        }
    }

    /** Eight threads submit at once; every job completes, the key is parsed once, nothing is left over. */
    @Test
    void manySubmittersOnManyThreads() throws Exception {
        Config cfg = Config.builder().memoryBudgetBytes(3 * reservation("multi_main")).build();
        try (Engine e = Engine.start(cfg)) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<JobHandle>>> submitted = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                submitted.add(pool.submit(() -> {
                    go.await();
                    List<JobHandle> mine = new ArrayList<>();
                    for (int j = 0; j < 6; j++) {
                        Priority p = Priority.values()[(thread + j) % 4];
                        mine.add(e.submit(Job.ofFiles(zkey("multi_main"), List.of(wtns("multi_main"), wtns("multi_main")), p)));
                    }
                    return mine;
                }));
            }
            go.countDown();
            int proofs = 0;
            Proof sample = null;
            for (Future<List<JobHandle>> f : submitted) {
                for (JobHandle h : f.get(1, TimeUnit.MINUTES)) {
                    List<Proof> ps = h.await(WAIT);
                    proofs += ps.size();
                    sample = ps.get(1);
                }
            }
            pool.shutdown();
            assertEquals(8 * 6 * 2, proofs);
            verify("multi_main", sample, tmp);
            assertEquals(1, e.keyLoads());
            assertEquals(96, e.status().counters().partitionsDone());
            assertAllReturned(e);
        }
    }

    /**
     * Whoever sees a job complete sees its partitions counted: the last two partitions of a job
     * finish on different finalizers, and the one that completes the job must not outrun the
     * other's count (the workload summary once reported 3 of 4 partitions this way).
     */
    @Test
    void aCompletedJobsPartitionsAreAlreadyCounted() throws Exception {
        Config cfg = Config.builder().finalizers(4).build();
        try (Engine e = Engine.start(cfg)) {
            long done = 0;
            for (int round = 0; round < 50; round++) {
                JobHandle h = e.submit(Job.ofFiles(zkey("multi_main"), List.of(wtns("multi_main"), wtns("multi_main"), wtns("multi_main")),
                        Priority.NORMAL));
                done += h.await(WAIT).size();
                assertEquals(done, e.status().counters().partitionsDone(), "round " + round);
            }
            assertAllReturned(e);
        }
    }

    /** Keys stay resident while idle, and are evicted, least recently used first, when the cache is full. */
    @Test
    void idleKeysAreKeptUntilTheCacheIsFull() throws Exception {
        long bytes;
        try (ProvingKey k = ProvingKey.read(zkey("chain_main"))) {
            bytes = k.byteSize();
        }
        try (Engine big = Engine.start(Config.builder().build())) {
            for (String c : List.of("chain_main", "multi_main", "chain_main")) {
                big.submit(Job.ofFiles(zkey(c), List.of(wtns(c)), Priority.NORMAL)).await(WAIT);
            }
            assertEquals(2, big.keyLoads(), "an idle key is kept for the next job");
            assertEquals(2, big.status().memory().keysResident());
        }
        try (Engine small = Engine.start(Config.builder().keyCacheBytes(bytes).build())) {
            for (String c : List.of("chain_main", "multi_main", "chain_main")) {
                small.submit(Job.ofFiles(zkey(c), List.of(wtns(c)), Priority.NORMAL)).await(WAIT);
            }
            assertEquals(3, small.keyLoads(), "with room for one key, the idle chain key was evicted for the multi key");
            assertTrue(small.status().memory().keyBytes() <= bytes);
        }
    }

    /** The contended baseline proves the same things; only its timing differs. */
    @Test
    void theContendedBaselineStillProves() throws Exception {
        try (Engine e = ContendedBaseline.start(Config.builder().build(), Duration.ofMillis(20))) {
            JobHandle h = e.submit(Job.ofFiles(zkey("multi_main"), Collections.nCopies(6, wtns("multi_main")), Priority.NORMAL));
            for (Proof p : h.await(WAIT)) {
                verify("multi_main", p, tmp);
            }
            assertEquals(TrackerMode.CONTENDED, e.status().tracker());
            assertAllReturned(e);
        }
    }

    @Test
    void shutdownNowCancelsEverything() throws Exception {
        Engine e = Engine.start(Config.builder().memoryBudgetBytes(reservation("poseidon_main")).build());
        JobHandle h = e.submit(Job.ofFiles(zkey("poseidon_main"), Collections.nCopies(20, wtns("poseidon_main")), Priority.NORMAL));
        Thread.sleep(50);
        e.shutdownNow();
        assertThrows(CancellationException.class, () -> h.await(WAIT));
        assertTrue(h.partitionStates().stream().allMatch(PartitionState::terminal), h.partitionStates().toString());
        assertThrows(IllegalStateException.class, () -> e.submit(Job.ofFiles(zkey("multi_main"), List.of(wtns("multi_main")),
                Priority.NORMAL)));
    }
}
