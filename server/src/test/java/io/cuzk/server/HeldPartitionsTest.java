package io.cuzk.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeldPartitionsTest {
    /** The area under the count, computed by hand: partitions that come and go between any two readings count too. */
    @Test
    void integratesEveryChangeExactly() {
        AtomicLong clock = new AtomicLong(1_000);
        HeldPartitions held = new HeldPartitions(clock::get);
        assertEquals(2, held.add(2)); // 2 held from t = 0
        clock.addAndGet(500_000_000L);
        assertEquals(5, held.add(3)); // 5 from 0.5 s
        clock.addAndGet(10_000_000L);
        assertEquals(2, held.add(-3)); // a 10 ms job, between any 0.1 s samples
        clock.addAndGet(1_490_000_000L);
        assertEquals(0, held.add(-2)); // none from 2 s
        clock.addAndGet(1_000_000_000L);
        // 2 x 0.5 + 5 x 0.01 + 2 x 1.49 = 4.03 partition-seconds, none added in the last second
        assertEquals(4.03, held.seconds(), 1e-9);
        assertEquals(0, held.count());
        held.add(4);
        clock.addAndGet(250_000_000L);
        assertEquals(4.03 + 1.0, held.seconds(), 1e-9, "partitions still held count up to now");
    }

    /** Threads adding and removing at once: the count ends where it began, and the area only grows. */
    @Test
    void concurrentChangesKeepCountAndAreaConsistent() throws Exception {
        HeldPartitions held = new HeldPartitions();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    held.add(3);
                    held.add(-3);
                }
            });
            threads[t].start();
        }
        double last = 0;
        for (int i = 0; i < 1_000; i++) {
            double s = held.seconds();
            assertTrue(s >= last, "the integral went back: " + s + " < " + last);
            last = s;
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertEquals(0, held.count());
    }
}
