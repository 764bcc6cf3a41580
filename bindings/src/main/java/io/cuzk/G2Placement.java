package io.cuzk;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the CUDA backend runs a proof's G2 MSM (the B2 sum).
 *
 * <ul>
 *   <li>{@link #CPU}: on a host thread with the CPU backend, overlapped with the GPU's H and four G1
 *       MSMs of the same proof (SupraSeal's choice): free while the host finishes first.
 *   <li>{@link #GPU}: on the device, queued after the G1 MSMs on the proof's stream, with the key's
 *       G2 points resident next to its G1 points.
 *   <li>{@link #AUTO} (the default): starts on the CPU and moves a key's G2 MSMs to the GPU for good
 *       once three proofs in a row waited for the host's G2 MSM after the device had finished (see
 *       {@link Rule}): the overlap only pays while the host is the faster of the two, which depends
 *       on the circuit's size, the host's cores and the GPU.
 * </ul>
 *
 * The system property {@code cuzk.cuda.g2} ({@code auto}, {@code gpu}, {@code cpu}) sets it for
 * backends opened with {@link Backend#cuda(int)}.
 */
public enum G2Placement {
    AUTO,
    GPU,
    CPU;

    /** The property's placement, or AUTO when it is unset; one clear message when it is not a placement. */
    static G2Placement fromProperty() {
        String v = System.getProperty("cuzk.cuda.g2");
        if (v == null || v.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cuzk.cuda.g2 must be auto, gpu or cpu, not '" + v + "'");
        }
    }

    /**
     * One key's choice under a placement: fixed for CPU and GPU; for AUTO, the host until the
     * proofs show it is the slower side. A proof waited for the host when, after the device's MSMs
     * had all finished, its G2 MSM still took more than {@link #WAIT_FLOOR_NANOS} and more than a
     * twentieth of the device's time for that proof. Three such proofs in a row move the key's G2
     * MSMs to the device; one that did not wait starts the count again. Thread-safe without locks:
     * lanes of one device report concurrently.
     */
    static final class Rule {
        static final int WAITS_TO_MOVE = 3;
        static final long WAIT_FLOOR_NANOS = 1_000_000;
        private final G2Placement placement;
        private final AtomicInteger waits = new AtomicInteger();
        private final AtomicBoolean moved = new AtomicBoolean();

        Rule(G2Placement placement) {
            this.placement = placement;
        }

        /** Whether the next proof's G2 MSM goes to the device. */
        boolean onGpu() {
            return placement == GPU || moved.get();
        }

        /**
         * Reports a proof whose G2 MSM ran on the host: deviceNanos from its start to the device's
         * last G1 result, waitedNanos from then to the host's G2 result. Returns true when this
         * report moved the key to the device.
         */
        boolean observe(long deviceNanos, long waitedNanos) {
            if (placement != AUTO || moved.get()) {
                return false;
            }
            boolean waited = waitedNanos > WAIT_FLOOR_NANOS && waitedNanos > deviceNanos / 20;
            if (!waited) {
                waits.set(0);
                return false;
            }
            return waits.incrementAndGet() >= WAITS_TO_MOVE && moved.compareAndSet(false, true);
        }
    }
}
