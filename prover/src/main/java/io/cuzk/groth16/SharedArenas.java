package io.cuzk.groth16;

import java.lang.foreign.Arena;
import java.util.concurrent.locks.LockSupport;

/** Closing the shared arenas of keys and witnesses, which other threads' native calls may be reading. */
final class SharedArenas {
    private SharedArenas() {}

    /**
     * Closes arena, waiting for native calls that read its memory to return: a shared arena
     * cannot close while a downcall holds one of its segments (the JDK refuses with "Session is
     * acquired by N clients"), and a close given up there would leave the memory allocated for
     * good. Java code reading the memory meanwhile is not waited for: once closed, its next read
     * fails with IllegalStateException. An interrupt does not stop the wait (the memory would
     * stay); it is kept for the caller.
     */
    static void closeWhenFree(Arena arena) {
        boolean interrupted = false;
        long pauseNanos = 20_000;
        while (true) {
            try {
                arena.close();
                break;
            } catch (IllegalStateException held) {
                if (!arena.scope().isAlive()) { // closed by someone else meanwhile: nothing left to free
                    break;
                }
                LockSupport.parkNanos(pauseNanos);
                pauseNanos = Math.min(2 * pauseNanos, 5_000_000);
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
