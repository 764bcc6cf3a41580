package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SlabPoolTest {
    @Test
    void blocksAreReusedAcrossArenas() {
        try (SlabPool pool = new SlabPool(SlabAllocator.offHeap(), 64L << 20)) {
            for (int round = 0; round < 100; round++) {
                try (PartitionArena a = pool.newArena()) {
                    MemorySegment s = a.allocate(100_000, 8);
                    MemorySegment t = a.allocate(3 << 20, 4096);
                    assertEquals(0, s.get(ValueLayout.JAVA_LONG, 8), "allocations are zeroed even when reused");
                    s.set(ValueLayout.JAVA_LONG, 8, 42);
                    t.set(ValueLayout.JAVA_LONG, 0, 7);
                    assertEquals(0, t.address() % 4096);
                }
            }
            assertEquals(2, pool.systemAllocations(), "two size classes, allocated once each and then reused");
            assertEquals(0, pool.outstandingBlocks());
            assertEquals(pool.allocatedBytes(), pool.idleBytes());
        }
    }

    @Test
    void aClosedArenasSegmentsCannotBeTouched() {
        try (SlabPool pool = new SlabPool(SlabAllocator.offHeap(), 64L << 20)) {
            PartitionArena a = pool.newArena();
            MemorySegment s = a.allocate(1024, 8);
            a.close();
            assertThrows(IllegalStateException.class, () -> s.get(ValueLayout.JAVA_BYTE, 0));
            PartitionArena b = pool.newArena();
            MemorySegment reused = b.allocate(1024, 8);
            reused.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            assertThrows(IllegalStateException.class, () -> s.set(ValueLayout.JAVA_BYTE, 0, (byte) 9),
                    "the old owner cannot write into the block's next owner");
            assertEquals(1, reused.get(ValueLayout.JAVA_BYTE, 0));
            b.close();
            assertThrows(IllegalStateException.class, () -> b.allocate(8, 8));
        }
    }

    @Test
    void idleMemoryBeyondTheLimitIsFreed() {
        try (SlabPool pool = new SlabPool(SlabAllocator.offHeap(), 1 << 20)) {
            PartitionArena a = pool.newArena();
            a.allocate(1 << 20, 8);
            a.allocate(1 << 20, 8);
            assertEquals(2 << 20, pool.allocatedBytes());
            a.close();
            assertEquals(1 << 20, pool.idleBytes());
            assertEquals(1 << 20, pool.allocatedBytes());
        }
    }

    /** While a kernel reads an arena's memory, closing the arena is refused and its blocks stay out of the pool. */
    @Test
    void closingDuringANativeReadIsRefused() throws Exception {
        try (SlabPool pool = new SlabPool(SlabAllocator.offHeap(), 64L << 20)) {
            PartitionArena a = pool.newArena();
            int n = 1 << 13;
            PointVector points = PointVector.wrap(Curve.BLS12_381, Group.G2,
                    a.allocate((long) n * Curve.BLS12_381.pointBytes(Group.G2), 8));
            ScalarVector scalars = ScalarVector.wrap(Curve.BLS12_381, ScalarForm.CANONICAL, a.allocate(n * 32L, 8));
            Point g = Points.generator(Curve.BLS12_381, Group.G2);
            java.util.Random rnd = new java.util.Random(3);
            for (int i = 0; i < n; i++) {
                points.set(i, g);
                scalars.set(i, new BigInteger(250, rnd));
            }
            CompletableFuture<Point> msm = CompletableFuture.supplyAsync(() -> Backend.cpu(1).msm(points, scalars));
            Thread.sleep(30); // let the kernel start (it runs for a few hundred milliseconds)
            int refused = 0;
            boolean closed = false;
            while (!closed && !msm.isDone()) {
                try {
                    a.close();
                    closed = true;
                } catch (IllegalStateException busy) {
                    refused++;
                    assertTrue(pool.outstandingBlocks() > 0, "a refused close keeps the blocks");
                }
            }
            if (!closed) {
                assertTrue(refused > 0);
                msm.get(120, TimeUnit.SECONDS); // the kernel that kept the arena open completes
                a.close();
            } else if (refused == 0) {
                // the close won the race: the kernel must then have been refused, not run on freed memory
                Throwable t = msm.handle((v, e) -> e).get(120, TimeUnit.SECONDS);
                assertTrue(t != null && t.getCause() instanceof IllegalStateException, String.valueOf(t));
            }
            assertEquals(0, pool.outstandingBlocks());
        }
    }

    @Test
    void sizeClasses() {
        assertEquals(16, SlabPool.sizeClass(1));
        assertEquals(16, SlabPool.sizeClass(65536));
        assertEquals(17, SlabPool.sizeClass(65537));
        assertEquals(30, SlabPool.sizeClass(1 << 30));
        assertThrows(IllegalArgumentException.class, () -> SlabPool.sizeClass(0));
    }

    /** Counts live blocks and refuses to free one it does not hold (a double free, a foreign block). */
    static final class CountingAllocator implements SlabAllocator {
        final java.util.Set<Long> live = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final SlabAllocator real = SlabAllocator.offHeap();

        @Override
        public MemorySegment allocate(long bytes) {
            MemorySegment s = real.allocate(bytes);
            live.add(s.address());
            return s;
        }

        @Override
        public void free(MemorySegment block) {
            if (!live.remove(block.address())) {
                throw new AssertionError("freed a block that is not live: " + block);
            }
            real.free(block);
        }

        @Override
        public boolean pinned() {
            return false;
        }
    }

    /** Blocks idle longer than the idle time go back to the system by themselves; the counts say so. */
    @Test
    void idleBlocksAreGivenBackAfterTheirIdleTime() throws Exception {
        CountingAllocator alloc = new CountingAllocator();
        try (SlabPool pool = new SlabPool(alloc, 1L << 30, java.time.Duration.ofMillis(100))) {
            PartitionArena a = pool.newArena();
            for (int i = 0; i < 4; i++) {
                a.allocate(1 << 20, 8);
            }
            a.close();
            assertEquals(4L << 20, pool.idleBytes());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.allocatedBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, pool.allocatedBytes(), "held after the idle time");
            assertEquals(4, pool.returnedBlocks());
            assertEquals(4L << 20, pool.returnedBytes());
            assertEquals(4L << 20, pool.peakBytes());
            assertTrue(alloc.live.isEmpty(), "the system got every block back");
            try (PartitionArena b = pool.newArena()) {
                b.allocate(1 << 20, 8).set(ValueLayout.JAVA_LONG, 0, 1); // the pool still serves
            }
            assertEquals(5, pool.systemAllocations());
        }
    }

    /**
     * Four threads take, fill, check and give back blocks while another gives idle blocks back to the
     * system as fast as it can: no block is handed to two owners at once, none is freed twice or
     * while in use (each owner finds its pattern intact), and the counts agree at the end.
     */
    @Test
    void givingIdleBlocksBackIsSafeUnderConcurrentDemand() throws Exception {
        CountingAllocator alloc = new CountingAllocator();
        try (SlabPool pool = new SlabPool(alloc, 1L << 30)) {
            java.util.Set<Long> owned = java.util.concurrent.ConcurrentHashMap.newKeySet();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
            Thread reaper = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    pool.releaseIdle(0);
                }
            });
            List<Thread> workers = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long pattern = 0x0101010101010101L * (t + 1);
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        java.util.Random rnd = new java.util.Random(pattern);
                        for (int i = 0; i < 5_000; i++) {
                            MemorySegment b = pool.take(65536L << rnd.nextInt(3));
                            if (!owned.add(b.address())) {
                                throw new AssertionError("a block handed to two owners");
                            }
                            b.set(ValueLayout.JAVA_LONG, 0, pattern);
                            b.set(ValueLayout.JAVA_LONG, b.byteSize() - 8, pattern);
                            Thread.onSpinWait();
                            if (b.get(ValueLayout.JAVA_LONG, 0) != pattern || b.get(ValueLayout.JAVA_LONG, b.byteSize() - 8) != pattern) {
                                throw new AssertionError("a block changed under its owner");
                            }
                            owned.remove(b.address());
                            pool.give(b);
                        }
                    } catch (Throwable x) {
                        failure.compareAndSet(null, x);
                    }
                }));
            }
            for (Thread w : workers) {
                w.join();
            }
            stop.set(true);
            reaper.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(0, pool.outstandingBlocks());
            assertEquals(pool.allocatedBytes(), pool.idleBytes());
            assertTrue(pool.returnedBlocks() > 0, "the reaper gave blocks back while they were in demand");
            assertEquals(pool.systemAllocations() - pool.returnedBlocks(), alloc.live.size(), "live blocks: allocated minus returned");
        }
        assertTrue(alloc.live.isEmpty(), "closing the pool freed the rest");
    }
}
