package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The engine's shutdown and failure paths: whatever goes wrong, every job a submit returned is
 * completed, the budget comes back, and nothing is freed under a kernel. Each test here failed on
 * the engine before its stages became classes (the first two through the public API alone; the
 * others need a device that fails, which the device seam now allows).
 */
class EngineShutdownTest {
    static final Path SAMPLE = Path.of("../samples/poseidon-bn254");
    static final Path ZKEY = SAMPLE.resolve("circuit.zkey");
    static final Path WTNS = SAMPLE.resolve("witness.wtns");
    static final Duration WAIT = Duration.ofSeconds(60);

    static Job job(int partitions) {
        return Job.ofFiles(ZKEY, Collections.nCopies(partitions, WTNS), Priority.NORMAL);
    }

    static Config.Builder oneWorker() {
        return Config.builder().devices(List.of(Backend.cpu(1))).synthesisWorkers(1).workersPerDevice(1);
    }

    static void awaitBudgetReturned(Engine e) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (e.status().memory().budgetUsed() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, e.status().memory().budgetUsed(), "budget still held after every job ended");
    }

    /** close() used to break out of its wait on an interrupt and stop the engine with the job's future never completed. */
    @Test
    void anInterruptedCloseStillCompletesEveryJob() throws Exception {
        Engine e = Engine.start(oneWorker().build());
        JobHandle h = e.submit(job(300));
        Thread closer = new Thread(e::close);
        closer.start();
        Thread.sleep(100);
        closer.interrupt();
        closer.join(WAIT.toMillis());
        assertFalse(closer.isAlive(), "close() never returned");
        CompletableFuture<?> f = h.future().toCompletableFuture();
        assertTimeoutPreemptively(WAIT, () -> {
            try {
                f.get();
            } catch (ExecutionException | CancellationException done) {
                // completed either way
            }
        });
        assertTrue(h.isDone(), "the job was never completed");
        assertEquals(300, e.status().counters().partitionsDone(), "close() waits for every job, interrupted or not");
    }

    /** An allocator whose frees fail: the pool's give, and so PartitionArena.close(), throws. */
    static final class FailingFree implements SlabAllocator {
        @Override
        public MemorySegment allocate(long bytes) {
            return Arena.ofAuto().allocate(bytes, 4096);
        }

        @Override
        public void free(MemorySegment block) {
            throw new IllegalStateException("free failed");
        }

        @Override
        public boolean pinned() {
            return false;
        }
    }

    /** releaseAbc/releaseAll set their flags, then an arena's close threw and skipped the budget's release. */
    @Test
    void aFailingArenaCloseStillReturnsTheBudget() throws Exception {
        Engine e = Engine.start(oneWorker().slabAllocator(new FailingFree()).maxIdlePoolBytes(0).build());
        JobHandle h = e.submit(job(2));
        assertEquals(2, h.await(WAIT).size(), "the proofs do not depend on the pool's bookkeeping");
        awaitBudgetReturned(e);
        assertTimeoutPreemptively(WAIT, e::close);
    }

    /** A device that fails its first starts as told, then proves on the backend. */
    static final class FailingDevice extends DelegatingDevice {
        private final List<Throwable> failures;
        private final AtomicInteger starts = new AtomicInteger();

        FailingDevice(String name, Backend b, int lanes, BooleanSupplier readyWork, List<Throwable> failures) {
            super(name, b, lanes, readyWork);
            this.failures = failures;
        }

        @Override
        public Backend.Pending start(int lane, Partition p, Runnable abcTaken) {
            int i = starts.getAndIncrement();
            if (i < failures.size()) {
                Throwable t = failures.get(i);
                if (t instanceof Error err) {
                    throw err;
                }
                throw (RuntimeException) t;
            }
            return real.start(lane, p, abcTaken);
        }
    }

    /**
     * An Error or a refused hand-off thrown by a device's start killed the worker and left the
     * partition PROVING with its budget held (close() then hung): now it fails that partition's job
     * only, and the worker goes on.
     */
    @Test
    void aDeviceThatThrowsFailsOnlyThatPartition() throws Exception {
        List<Throwable> failures = List.of(new AssertionError("the device broke"), new RejectedExecutionException("hand-off refused"));
        Engine e = Engine.start(oneWorker().build(), StatusTracker::lockFree,
                (name, b, lanes, ready) -> new FailingDevice(name, b, lanes, ready, failures));
        try {
            JobHandle first = e.submit(job(1));
            ExecutionException x1 = assertThrows(ExecutionException.class, () -> first.await(WAIT));
            assertInstanceOf(PartitionFailedException.class, x1.getCause());
            assertInstanceOf(AssertionError.class, x1.getCause().getCause());
            JobHandle second = e.submit(job(1));
            ExecutionException x2 = assertThrows(ExecutionException.class, () -> second.await(WAIT));
            assertInstanceOf(RejectedExecutionException.class, x2.getCause().getCause());
            JobHandle third = e.submit(job(2));
            assertEquals(2, third.await(WAIT).size(), "the worker survived and proves the next job");
            awaitBudgetReturned(e);
            assertEquals(2, e.status().counters().partitionsFailed());
        } finally {
            assertTimeoutPreemptively(WAIT, e::close);
        }
    }

    /** A device whose kernels run until the test lets them end, checking that the key's points stay readable. */
    static final class HangingDevice implements ProvingDevice {
        final DeviceTimeline timeline;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<ProvingKey> key = new AtomicReference<>();
        final AtomicReference<Throwable> keyClosedUnderKernel = new AtomicReference<>();

        HangingDevice(String name) {
            this.timeline = new DeviceTimeline(name);
        }

        @Override
        public String name() {
            return timeline.name;
        }

        @Override
        public DeviceTimeline timeline() {
            return timeline;
        }

        @Override
        public Backend.Pending start(int lane, Partition p, Runnable abcTaken) {
            key.set(p.key);
            started.countDown();
            return () -> {
                while (true) {
                    try {
                        release.await(); // a kernel: the worker's interrupt does not end it
                        break;
                    } catch (InterruptedException ignored) {
                        // keep running, as a GPU kernel would
                    }
                }
                try {
                    p.key.a().segment().get(ValueLayout.JAVA_BYTE, 0); // the kernel still reads the key's points
                } catch (IllegalStateException closed) {
                    keyClosedUnderKernel.set(closed);
                }
                throw new IllegalStateException("cancelled");
            };
        }

        @Override
        public int queued() {
            return 0;
        }

        @Override
        public void close() {}
    }

    /**
     * After the stages' join timeouts the engine used to close every key, under kernels that might
     * still run: now a kernel running past the shutdown timeout keeps its key, memory and device.
     */
    @Test
    void keysAreNotClosedUnderAKernelThatOutlivesTheTimeout() throws Exception {
        AtomicReference<HangingDevice> device = new AtomicReference<>();
        Engine e = Engine.start(oneWorker().shutdownTimeout(Duration.ofMillis(300)).build(), StatusTracker::lockFree,
                (name, b, lanes, ready) -> {
                    HangingDevice d = new HangingDevice(name);
                    device.set(d);
                    return d;
                });
        JobHandle h = e.submit(job(1));
        HangingDevice d = device.get();
        assertTrue(d.started.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the partition never reached the device");
        assertTimeoutPreemptively(WAIT, e::shutdownNow);
        assertThrows(CancellationException.class, () -> h.await(WAIT), "the job's waiters were told");
        ProvingKey key = d.key.get();
        key.a().segment().get(ValueLayout.JAVA_BYTE, 0); // still open: the kernel has not ended
        d.release.countDown();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (h.partitionStates().get(0) != PartitionState.CANCELLED && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(100); // the kernel's last read
        assertEquals(null, d.keyClosedUnderKernel.get(), "the key was closed while the kernel ran");
    }

    /**
     * Jobs submitted while another thread shuts the engine down: each submit either is refused or
     * returns a job that completes (submit() used to race shutdownNow()'s snapshot of the active
     * jobs, leaving some never completed).
     */
    @Test
    void everyAcceptedJobCompletesWhenTheEngineStopsMeanwhile() throws Exception {
        for (int round = 0; round < 5; round++) {
            Engine e = Engine.start(oneWorker().build());
            List<JobHandle> accepted = Collections.synchronizedList(new ArrayList<>());
            List<Thread> submitters = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 4; t++) {
                Thread s = new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 50; i++) {
                            accepted.add(e.submit(job(1)));
                        }
                    } catch (IllegalStateException closed) {
                        // refused: the engine stopped accepting
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                });
                s.start();
                submitters.add(s);
            }
            go.countDown();
            Thread.sleep(round * 3L);
            assertTimeoutPreemptively(WAIT, e::shutdownNow);
            for (Thread s : submitters) {
                s.join(WAIT.toMillis());
            }
            for (JobHandle h : accepted) {
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                    try {
                        h.future().toCompletableFuture().get();
                    } catch (ExecutionException | CancellationException done) {
                        // completed
                    }
                }, "job " + h.id() + " was accepted but never completed");
            }
        }
    }

    /** Callers get a view of a job's outcome: nothing they do to it completes the job. */
    @Test
    void theFutureCallersGetCannotCompleteTheJob() throws Exception {
        try (Engine e = Engine.start(oneWorker().build())) {
            JobHandle h = e.submit(job(1));
            CompletionStage<List<Proof>> view = h.future();
            assertThrows(UnsupportedOperationException.class, () -> ((CompletableFuture<List<Proof>>) view).complete(List.of()));
            view.toCompletableFuture().complete(List.of()); // an independent copy
            assertEquals(1, h.await(WAIT).size(), "the job's own proofs arrive");
        }
    }
}
