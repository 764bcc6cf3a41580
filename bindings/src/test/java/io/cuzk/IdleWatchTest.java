package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the CUDA backend gives its pooled device memory back (no GPU needed: it only counts). */
class IdleWatchTest {
    static final long S = 1_000_000_000L;

    @Test
    void dueOncePerQuietPeriodAndNeverWhileWorkRuns() {
        IdleWatch w = new IdleWatch(10 * S, 0);
        assertFalse(w.due(9 * S), "not idle long enough since it was made");
        assertTrue(w.due(10 * S));
        assertFalse(w.due(20 * S), "that quiet period was reported already");
        w.begin();
        assertFalse(w.due(100 * S), "work is running");
        w.end(101 * S);
        assertFalse(w.due(110 * S));
        assertTrue(w.due(111 * S), "a new quiet period");
        assertFalse(w.due(500 * S));
    }

    @Test
    void overlappingWorkCountsUntilTheLastEnds() {
        IdleWatch w = new IdleWatch(S, 0);
        w.begin();
        w.begin();
        w.end(5 * S);
        assertFalse(w.due(50 * S), "one still runs");
        w.end(6 * S);
        assertFalse(w.due(6 * S + S - 1));
        assertTrue(w.due(7 * S));
    }

    @Test
    void anEarlierEndReportedLateDoesNotMoveTheLastEndBack() {
        IdleWatch w = new IdleWatch(S, 0);
        w.begin();
        w.begin();
        w.end(9 * S);
        w.end(8 * S); // a thread that read its clock earlier reports after
        assertFalse(w.due(9 * S + S / 2));
        assertTrue(w.due(10 * S));
    }

    @Test
    void zeroMeansNever() {
        IdleWatch w = new IdleWatch(0, 0);
        assertFalse(w.due(Long.MAX_VALUE / 2));
    }

    @Test
    void concurrentCheckersReportAQuietPeriodOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            IdleWatch w = new IdleWatch(S, 0);
            AtomicInteger yes = new AtomicInteger();
            Thread[] t = new Thread[4];
            for (int i = 0; i < t.length; i++) {
                t[i] = Thread.ofPlatform().start(() -> {
                    for (int k = 0; k < 100; k++) {
                        if (w.due(2 * S)) {
                            yes.incrementAndGet();
                        }
                    }
                });
            }
            for (Thread th : t) {
                th.join(10_000);
            }
            assertEquals(1, yes.get(), "round " + round);
        }
    }
}
