package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
    @Test
    void takesWhatFitsAndNeverMore() throws InterruptedException {
        MemoryBudget b = new MemoryBudget(100);
        assertTrue(b.acquireOrWait(60, 0));
        assertFalse(b.acquireOrWait(50, 1_000_000));
        assertTrue(b.acquireOrWait(40, 0));
        assertEquals(100, b.used());
        b.release(60);
        assertTrue(b.acquireOrWait(50, 0));
        assertEquals(100, b.peak());
        assertThrows(IllegalStateException.class, () -> b.release(1000));
    }

    /** A release while the acquirer waits wakes it at once (well before its timeout). */
    @Test
    void aReleaseWakesTheWaiterAtOnce() throws Exception {
        MemoryBudget b = new MemoryBudget(10);
        assertTrue(b.acquireOrWait(10, 0));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicLong woke = new AtomicLong();
        Thread t = new Thread(() -> {
            try {
                waiting.countDown();
                while (!b.acquireOrWait(5, TimeUnit.SECONDS.toNanos(30))) {
                    // retry, as the dispatcher does
                }
                woke.set(System.nanoTime());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        waiting.await();
        Thread.sleep(100);
        long released = System.nanoTime();
        b.release(10);
        t.join(10_000);
        assertTrue(woke.get() > 0, "the waiter never got the memory");
        assertTrue(woke.get() - released < TimeUnit.SECONDS.toNanos(5), "woken by the release, not by its 30 s timeout");
    }

    /** Many releasing threads, one acquirer: the use never goes above the capacity and ends at zero. */
    @Test
    void concurrentReleasesKeepTheBudget() throws Exception {
        MemoryBudget b = new MemoryBudget(1000);
        AtomicBoolean over = new AtomicBoolean();
        Thread[] releasers = new Thread[8];
        java.util.concurrent.BlockingQueue<Long> held = new java.util.concurrent.LinkedBlockingQueue<>();
        for (int i = 0; i < releasers.length; i++) {
            releasers[i] = new Thread(() -> {
                try {
                    while (true) {
                        long v = held.take();
                        if (v < 0) {
                            return;
                        }
                        b.release(v);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            releasers[i].start();
        }
        java.util.Random rnd = new java.util.Random(1);
        for (int i = 0; i < 20_000; i++) {
            long want = 1 + rnd.nextInt(300);
            while (!b.acquireOrWait(want, 10_000_000)) {
                // wait for releases
            }
            if (b.used() > b.capacity()) {
                over.set(true);
            }
            held.put(want);
        }
        for (int i = 0; i < releasers.length; i++) {
            held.put(-1L);
        }
        for (Thread t : releasers) {
            t.join();
        }
        assertFalse(over.get());
        assertTrue(b.peak() <= 1000);
        assertEquals(0, b.used());
    }
}
