package io.cuzk.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.Curve;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The blinding's generator: the operating system's, read directly, behaving as a SecureRandom. */
class SystemRandomTest {
    @Test
    void readsTheDeviceWhereThereIsOne() {
        assumeTrue(SystemRandom.DEVICE.canRead(), SystemRandom.DEVICE + " cannot be read here: the JDK's default is used instead");
        SecureRandom r = SystemRandom.create();
        assertInstanceOf(SystemRandom.class, r);
        assertEquals("cuzk-urandom", r.getAlgorithm());
    }

    @Test
    void fillsWhatItIsGivenWithBytesThatDoNotRepeat() {
        SecureRandom r = SystemRandom.create();
        for (int n : new int[] {0, 1, 31, 4096}) {
            byte[] b = new byte[n];
            r.nextBytes(b);
            if (n >= 31) {
                assertFalse(Arrays.equals(b, new byte[n]), n + " bytes left zero");
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            byte[] b = new byte[32];
            r.nextBytes(b);
            assertTrue(seen.add(Arrays.toString(b)), "a 32-byte draw repeated");
        }
        assertEquals(16, r.generateSeed(16).length);
        r.setSeed(42); // accepted and ignored: the next bytes still come from the device
        assertNotEquals(r.nextLong(), r.nextLong());
    }

    /**
     * The device stays open for the process: threads drawing at once each get their own bytes, and
     * a draw by an interrupted thread neither fails nor spoils later draws (a FileChannel would be
     * closed by the interrupt).
     */
    @Test
    void drawsFromManyThreadsAndAfterAnInterrupt() throws Exception {
        SecureRandom r = SystemRandom.create();
        Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 2000; i++) {
                    byte[] b = new byte[16];
                    r.nextBytes(b);
                    seen.add(Arrays.toString(b));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(8000, seen.size(), "16-byte draws repeated across threads");
        byte[][] drawn = new byte[2][64];
        Thread interrupted = Thread.ofPlatform().unstarted(() -> {
            Thread.currentThread().interrupt();
            r.nextBytes(drawn[0]);
        });
        interrupted.start();
        interrupted.join();
        r.nextBytes(drawn[1]);
        assertFalse(Arrays.equals(drawn[0], new byte[64]), "the interrupted thread's draw");
        assertFalse(Arrays.equals(drawn[1], new byte[64]), "the draw after it");
    }

    /** 256 KiB of bytes: each value's count is within 7 standard deviations of 1,024 (never by chance). */
    @Test
    void bytesAreSpreadEvenly() {
        byte[] b = new byte[256 << 10];
        SystemRandom.create().nextBytes(b);
        int[] count = new int[256];
        for (byte x : b) {
            count[x & 0xff]++;
        }
        for (int v = 0; v < 256; v++) {
            assertTrue(count[v] > 800 && count[v] < 1250, "byte " + v + " came " + count[v] + " times in 262144");
        }
    }

    @Test
    void blindingFactorsAreBelowTheGroupOrderAndFresh() {
        Blinding blinding = Blinding.secure();
        for (Curve c : Curve.values()) {
            BigInteger[] first = blinding.draw(c);
            BigInteger[] second = blinding.draw(c);
            for (BigInteger v : new BigInteger[] {first[0], first[1], second[0], second[1]}) {
                assertTrue(v.signum() >= 0 && v.compareTo(c.r()) < 0, c + ": " + v + " is not in [0, r)");
            }
            assertNotEquals(first[0], first[1]);
            assertNotEquals(first[0], second[0]);
            assertNotEquals(first[1], second[1]);
        }
    }
}
