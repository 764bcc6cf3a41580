package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Memory safety at the FFM boundary: vectors of a closed arena, of another thread's confined arena,
 * and a shared arena closed while a kernel reads it all raise exceptions; the JVM never touches
 * freed memory.
 */
class SafetyTest {
    static PointVector bases(Arena a, Curve c, Group g, int n) {
        PointVector gs = PointVector.allocate(a, c, g, n);
        ScalarVector m = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
        Point gen = Points.generator(c, g);
        for (int i = 0; i < n; i++) {
            gs.set(i, gen);
            m.set(i, BigInteger.valueOf(i + 1));
        }
        PointVector out = PointVector.allocate(a, c, g, n);
        Points.multiply(gs, m, out);
        return out;
    }

    @Test
    void aClosedArenaRaisesInsteadOfCrashing() {
        Arena arena = Arena.ofConfined();
        PointVector p = bases(arena, Curve.BN254, Group.G1, 8);
        ScalarVector s = ScalarVector.allocate(arena, Curve.BN254, 8, ScalarForm.CANONICAL);
        arena.close();
        assertThrows(IllegalStateException.class, () -> Backend.cpu().msm(p, s));
        assertThrows(IllegalStateException.class, () -> Backend.cpu().ntt(ScalarVector.wrap(Curve.BN254, ScalarForm.MONTGOMERY, s.segment()), NttKind.FORWARD));
        assertThrows(IllegalStateException.class, () -> p.check(Check.all()));
        assertThrows(IllegalStateException.class, () -> p.get(0));
        assertThrows(IllegalStateException.class, () -> s.set(0, BigInteger.ONE));
    }

    @Test
    void anotherThreadsConfinedArenaIsRefused() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            PointVector p = bases(arena, Curve.BN254, Group.G1, 4);
            ScalarVector s = ScalarVector.allocate(arena, Curve.BN254, 4, ScalarForm.CANONICAL);
            CompletableFuture<Throwable> f = CompletableFuture.supplyAsync(() -> {
                try {
                    Backend.cpu().msm(p, s);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertTrue(f.get(30, TimeUnit.SECONDS) instanceof WrongThreadException, "expected WrongThreadException");
        }
    }

    /**
     * Closing a shared arena while a native MSM reads it fails with IllegalStateException (the call
     * holds the arena open); the MSM completes with the right answer and the arena closes after. The
     * close loop may also win just after the call releases the arena, before the future completes.
     */
    @Test
    void closingASharedArenaDuringAKernelWaitsForIt() throws Exception {
        Curve c = Curve.BLS12_381;
        int n = 1 << 13;
        Arena arena = Arena.ofShared();
        PointVector p = bases(arena, c, Group.G2, n);
        ScalarVector s = ScalarVector.allocate(arena, c, n, ScalarForm.CANONICAL);
        BigInteger sum = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            BigInteger k = BigInteger.valueOf(1000003L * i + 7);
            s.set(i, k);
            sum = sum.add(k.multiply(BigInteger.valueOf(i + 1)));
        }
        Point expected = Points.multiply(Points.generator(c, Group.G2), sum.mod(c.r()));
        AtomicInteger refusals = new AtomicInteger();
        CompletableFuture<Point> msm = CompletableFuture.supplyAsync(() -> Backend.cpu(1).msm(p, s));
        boolean closed = false;
        while (!closed && !msm.isDone()) {
            try {
                arena.close();
                closed = true; // won the race before the call acquired the arena
            } catch (IllegalStateException busy) {
                refusals.incrementAndGet();
                Thread.onSpinWait();
            }
        }
        Point result = null;
        Throwable failure = null;
        try {
            result = msm.get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure = e.getCause();
        }
        if (closed && refusals.get() == 0) {
            // the close won before the call acquired the arena
            assertTrue(failure instanceof IllegalStateException, "an MSM on a closed arena must be refused: " + failure);
        } else if (closed) {
            // the close was refused while the native call held the arena, then succeeded in the
            // instant after the call released it and before the future completed
            assertEquals(expected, result, "the MSM that held the arena must finish correctly: " + failure);
        } else {
            assertTrue(refusals.get() > 0);
            assertEquals(expected, result, "the MSM that kept the arena open must finish correctly");
            arena.close();
        }
        assertThrows(IllegalStateException.class, () -> p.get(0));
    }

    @Test
    void mismatchedVectorsAreRefusedInJava() {
        try (Arena a = Arena.ofConfined()) {
            PointVector p = PointVector.allocate(a, Curve.BN254, Group.G1, 3);
            ScalarVector s4 = ScalarVector.allocate(a, Curve.BN254, 4, ScalarForm.CANONICAL);
            ScalarVector bls = ScalarVector.allocate(a, Curve.BLS12_381, 3, ScalarForm.CANONICAL);
            assertThrows(IllegalArgumentException.class, () -> Backend.cpu().msm(p, s4));
            assertThrows(IllegalArgumentException.class, () -> Backend.cpu().msm(p, bls));
            assertThrows(IllegalArgumentException.class,
                    () -> PointVector.wrap(Curve.BN254, Group.G1, a.allocate(65, 8)));
            // points at any address are accepted (a zkey's sections sit 4 bytes off), but a kernel
            // writes only into an aligned vector
            PointVector off = PointVector.wrap(Curve.BN254, Group.G1, a.allocate(3 * 64 + 8, 8).asSlice(4, 3 * 64));
            ScalarVector s3 = ScalarVector.allocate(a, Curve.BN254, 3, ScalarForm.CANONICAL);
            Points.multiply(off, s3, PointVector.allocate(a, Curve.BN254, Group.G1, 3));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Points.multiply(p, s3, off));
            assertTrue(e.getMessage().contains("8-byte aligned"), e.getMessage());
        }
    }
}
