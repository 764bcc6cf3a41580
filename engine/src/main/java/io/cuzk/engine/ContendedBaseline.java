package io.cuzk.engine;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.lang3.Validate;

/**
 * The design this engine replaces, kept only to measure it next to the engine's own (the
 * {@code workload --tracker contended} command and the hand-off benchmark): one fair lock on the
 * status tracker, taken twice per partition by every device worker, and held by finalizers across
 * a stall standing in for {@code malloc_trim(0)} on a large heap. A worker that finishes while
 * finalizers queue on the lock cannot start its next partition until they are through, so the
 * device idles. This class is the only way to it: nothing else in the engine's configuration
 * chooses a tracker.
 */
public final class ContendedBaseline {
    private ContendedBaseline() {}

    /** An engine whose workers and finalizers share the contended tracker; finalizers stall for stall. */
    public static Engine start(Config config, Duration stall) {
        Validate.isTrue(stall != null && !stall.isNegative(), "the stall must not be negative");
        return Engine.start(config, names -> StatusTracker.contended(names, stall), BackendDevice::new);
    }

    /**
     * One device worker's hand-off between two partitions (report the finished one, report the
     * start of the next) while two finalizer threads keep finishing partitions under the tracker's
     * rules: {@link #run()} is what the worker does between two partitions, the time a device would
     * idle if this worker alone fed it. Close it to stop the finalizers.
     */
    public static final class Handoff implements AutoCloseable {
        private final StatusTracker tracker;
        private final ExecutorService finalizers = Executors.newFixedThreadPool(2, Engine.daemon("cuzk-handoff-finalizer"));
        private final AtomicBoolean running = new AtomicBoolean(true);

        private Handoff(StatusTracker tracker, boolean contended) {
            this.tracker = tracker;
            for (int i = 0; i < 2; i++) {
                finalizers.execute(() -> {
                    while (running.get()) {
                        tracker.finalize(null, Handoff::assemble);
                        if (!contended) {
                            Thread.onSpinWait(); // the lock-free finalizer returns memory to the pool, no trim
                        }
                    }
                });
            }
        }

        /** A few microseconds of work, standing in for assembling a proof. */
        private static void assemble() {
            long x = 0;
            for (int k = 0; k < 2000; k++) {
                x += k * 31L;
            }
            if (x == 42) {
                throw new IllegalStateException();
            }
        }

        public void run() {
            tracker.afterFinish(0, null);
            tracker.beforeStart(0, null);
        }

        @Override
        public void close() {
            running.set(false);
            finalizers.shutdown();
            try {
                finalizers.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The hand-off with the contended tracker (finalizers stalling for stall), or with the engine's own. */
    public static Handoff handoff(TrackerMode mode, Duration stall) {
        Validate.notNull(mode, "mode");
        String[] names = {"w0", "w1"};
        StatusTracker t = mode == TrackerMode.CONTENDED ? StatusTracker.contended(names, stall) : StatusTracker.lockFree(names);
        return new Handoff(t, mode == TrackerMode.CONTENDED);
    }
}
