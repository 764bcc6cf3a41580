package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The rule that moves a key's G2 MSMs from the host to the device (no GPU needed: it only counts). */
class G2PlacementTest {
    static final long MS = 1_000_000;

    @Test
    void autoMovesAfterThreeProofsInARowWaitedForTheHost() {
        G2Placement.Rule r = new G2Placement.Rule(G2Placement.AUTO);
        assertFalse(r.onGpu(), "AUTO starts on the host");
        assertFalse(r.observe(100 * MS, 20 * MS));
        assertFalse(r.observe(100 * MS, 20 * MS));
        assertTrue(r.observe(100 * MS, 20 * MS), "the third wait in a row moves it");
        assertTrue(r.onGpu());
        assertFalse(r.observe(100 * MS, 20 * MS), "moved once, for good");
        assertTrue(r.onGpu());
    }

    @Test
    void aProofThatDidNotWaitStartsTheCountAgain() {
        G2Placement.Rule r = new G2Placement.Rule(G2Placement.AUTO);
        r.observe(100 * MS, 20 * MS);
        r.observe(100 * MS, 20 * MS);
        assertFalse(r.observe(100 * MS, 0), "the host was done first");
        assertFalse(r.observe(100 * MS, 20 * MS));
        assertFalse(r.observe(100 * MS, 20 * MS));
        assertFalse(r.onGpu());
        assertTrue(r.observe(100 * MS, 20 * MS));
    }

    @Test
    void shortWaitsDoNotCount() {
        G2Placement.Rule r = new G2Placement.Rule(G2Placement.AUTO);
        for (int i = 0; i < 10; i++) {
            // under the 1 ms floor, and under a twentieth of the device's time
            assertFalse(r.observe(10 * MS, MS / 2));
            assertFalse(r.observe(1000 * MS, 40 * MS));
        }
        assertFalse(r.onGpu());
        // just over both bounds
        for (int i = 0; i < 3; i++) {
            r.observe(1000 * MS, 51 * MS);
        }
        assertTrue(r.onGpu());
    }

    @Test
    void fixedPlacementsNeverMove() {
        G2Placement.Rule cpu = new G2Placement.Rule(G2Placement.CPU);
        G2Placement.Rule gpu = new G2Placement.Rule(G2Placement.GPU);
        for (int i = 0; i < 5; i++) {
            assertFalse(cpu.observe(100 * MS, 90 * MS));
            assertFalse(gpu.observe(100 * MS, 90 * MS));
        }
        assertFalse(cpu.onGpu());
        assertTrue(gpu.onGpu());
    }

    /** Lanes of one device report concurrently: exactly one report makes the move. */
    @Test
    void concurrentReportsMoveItOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            G2Placement.Rule r = new G2Placement.Rule(G2Placement.AUTO);
            AtomicInteger moves = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 5; i++) {
                        if (r.observe(100 * MS, 30 * MS)) {
                            moves.incrementAndGet();
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(10_000);
            }
            assertTrue(r.onGpu());
            assertEquals(1, moves.get(), "round " + round);
        }
    }

    @Test
    void thePropertyNamesAPlacementOrSaysWhatIsWrong() {
        String old = System.getProperty("cuzk.cuda.g2");
        try {
            System.clearProperty("cuzk.cuda.g2");
            assertEquals(G2Placement.AUTO, G2Placement.fromProperty());
            System.setProperty("cuzk.cuda.g2", " Gpu ");
            assertEquals(G2Placement.GPU, G2Placement.fromProperty());
            System.setProperty("cuzk.cuda.g2", "cpu");
            assertEquals(G2Placement.CPU, G2Placement.fromProperty());
            System.setProperty("cuzk.cuda.g2", "fpga");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, G2Placement::fromProperty);
            assertEquals("cuzk.cuda.g2 must be auto, gpu or cpu, not 'fpga'", e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty("cuzk.cuda.g2");
            } else {
                System.setProperty("cuzk.cuda.g2", old);
            }
        }
    }
}
