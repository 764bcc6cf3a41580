package io.cuzk.groth16;

/**
 * The uses of a key's or a witness's memory that native code reads through addresses the JDK does
 * not track (synthesis hands them over in a struct, so closing the arena would not wait for it and
 * the call would read freed memory): {@link #close} waits for the uses in progress, and none
 * starts once it has begun.
 */
final class CloseGate {
    private final String name;
    private int uses; // under this
    private boolean closing; // under this

    CloseGate(String name) {
        this.name = name;
    }

    /** A use of the memory until the returned handle is closed; an IllegalStateException once closing. */
    synchronized Use enter() {
        if (closing) {
            throw new IllegalStateException(name + " is closed");
        }
        uses++;
        java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (ended.compareAndSet(false, true)) {
                exit();
            }
        };
    }

    private synchronized void exit() {
        if (--uses == 0) {
            notifyAll();
        }
    }

    /**
     * Refuses new uses and waits for those in progress (an interrupt does not stop the wait: the
     * memory would stay; it is kept for the caller); false when closing had begun already.
     */
    synchronized boolean close() {
        if (closing) {
            return false;
        }
        closing = true;
        boolean interrupted = false;
        while (uses > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    /** A use in progress; closing it ends the use (a second close does nothing). */
    interface Use extends AutoCloseable {
        @Override
        void close();
    }
}
