package io.cuzk.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The gate a key's and a witness's close pass (synthesis reads their memory through addresses the
 * JDK does not count): close waits for the uses in progress, an interrupt does not cut the wait
 * short, no use starts once closing, and a use ended twice counts once.
 */
class CloseGateTest {
    @Test
    void closeWaitsForTheUsesInProgressAndRefusesNewOnes() throws Exception {
        CloseGate gate = new CloseGate("k.zkey");
        CloseGate.Use first = gate.enter(), second = gate.enter();
        CompletableFuture<Boolean> closed = new CompletableFuture<>();
        Thread closer = new Thread(() -> closed.complete(gate.close()));
        closer.start();
        assertThrows(TimeoutException.class, () -> closed.get(200, TimeUnit.MILLISECONDS), "two uses in progress");
        // no use starts once closing has begun (wait until the closer has begun)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        IllegalStateException refused = null;
        while (refused == null && System.nanoTime() < deadline) {
            try {
                gate.enter().close();
                Thread.sleep(1);
            } catch (IllegalStateException e) {
                refused = e;
            }
        }
        assertEquals("k.zkey is closed", refused == null ? null : refused.getMessage());
        closer.interrupt(); // does not end the wait: the memory would stay allocated
        first.close();
        first.close(); // a second end of one use counts once: the other is still in progress
        assertThrows(TimeoutException.class, () -> closed.get(200, TimeUnit.MILLISECONDS), "one use still in progress");
        second.close();
        assertTrue(closed.get(10, TimeUnit.SECONDS), "closed once the last use ended");
        closer.join(10_000);
        assertFalse(gate.close(), "a second close does nothing");
    }

    @Test
    void anInterruptDuringTheWaitIsKeptForTheCaller() throws Exception {
        CloseGate gate = new CloseGate("w.wtns");
        CloseGate.Use use = gate.enter();
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        Thread closer = new Thread(() -> {
            gate.close();
            interruptedAfter.complete(Thread.currentThread().isInterrupted());
        });
        closer.start();
        Thread.sleep(100);
        closer.interrupt();
        Thread.sleep(100);
        assertFalse(interruptedAfter.isDone(), "still waiting for the use");
        use.close();
        assertTrue(interruptedAfter.get(10, TimeUnit.SECONDS), "the interrupt status is set again");
    }
}
