package io.cuzk.engine;

import java.util.Locale;

/** How an engine keeps its status: its own design, or the baseline it replaces ({@link ContendedBaseline}). */
public enum TrackerMode {
    /**
     * Per-worker single-writer state and counters; readers never block writers; finalizers hold
     * nothing a worker waits for. The engine's design.
     */
    LOCKFREE,
    /**
     * The baseline of the system this engine replaces, for side-by-side measurement: one fair lock
     * on the tracker, taken twice per partition by every device worker, and held by finalizers
     * across a stall that stands in for malloc_trim on a large heap.
     */
    CONTENDED;

    public static TrackerMode parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "lockfree", "lock-free" -> LOCKFREE;
            case "contended" -> CONTENDED;
            default -> throw new IllegalArgumentException("unknown tracker '" + s + "': expected lockfree or contended");
        };
    }
}
