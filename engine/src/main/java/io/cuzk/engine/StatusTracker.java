package io.cuzk.engine;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What device workers report, and the one thing finalizers must do under the tracker's rules.
 * {@link #lockFree} is the engine's design; {@link #contended} reproduces the design it replaces,
 * for measurement side by side.
 */
abstract class StatusTracker {
    /** One worker's state; written only by that worker (single writer), read by anyone. */
    static final class WorkerSlot {
        final String name;
        volatile String activity = "idle";
        volatile String partition = "";
        volatile long since = System.nanoTime();
        volatile long partitions;

        WorkerSlot(String name) {
            this.name = name;
        }

        void set(String activity, String partition) {
            this.activity = activity;
            this.partition = partition;
            this.since = System.nanoTime();
        }
    }

    final WorkerSlot[] workers;
    final TrackerMode mode;

    StatusTracker(TrackerMode mode, String[] workerNames) {
        this.mode = mode;
        this.workers = new WorkerSlot[workerNames.length];
        for (int i = 0; i < workerNames.length; i++) {
            workers[i] = new WorkerSlot(workerNames[i]);
        }
    }

    /** A worker took p and is about to start it on its device. */
    abstract void beforeStart(int worker, Partition p);

    /** A worker's partition came back from its device. */
    abstract void afterFinish(int worker, Partition p);

    /** Runs a finalizer's work (proof assembly, memory return) under this tracker's rules. */
    abstract void finalize(Partition p, Runnable work);

    /** Reads status under this tracker's rules. */
    abstract <T> T read(Supplier<T> reader);

    static StatusTracker lockFree(String[] workerNames) {
        return new LockFree(workerNames);
    }

    static StatusTracker contended(String[] workerNames, Duration stall) {
        return new Contended(workerNames, stall);
    }

    /** Single-writer slots, no lock anywhere: a worker never waits on the tracker. */
    static final class LockFree extends StatusTracker {
        LockFree(String[] names) {
            super(TrackerMode.LOCKFREE, names);
        }

        @Override
        void beforeStart(int worker, Partition p) {
            workers[worker].set("proving", String.valueOf(p));
        }

        @Override
        void afterFinish(int worker, Partition p) {
            WorkerSlot w = workers[worker];
            w.partitions = w.partitions + 1;
            w.set("handing off", String.valueOf(p));
        }

        @Override
        void finalize(Partition p, Runnable work) {
            work.run();
        }

        @Override
        <T> T read(Supplier<T> reader) {
            return reader.get();
        }
    }

    /**
     * One fair lock over the tracker, as in the seed design: each worker takes it twice per
     * partition, and finalizers hold it across their work plus a stall standing in for
     * malloc_trim(0) on a large heap. A worker that finishes while finalizers queue on the lock
     * cannot start its next partition until they are through, so the device idles.
     */
    static final class Contended extends StatusTracker {
        private final ReentrantLock lock = new ReentrantLock(true);
        private final long stallNanos;

        Contended(String[] names, Duration stall) {
            super(TrackerMode.CONTENDED, names);
            this.stallNanos = stall.toNanos();
        }

        @Override
        void beforeStart(int worker, Partition p) {
            lock.lock();
            try {
                workers[worker].set("proving", String.valueOf(p));
            } finally {
                lock.unlock();
            }
        }

        @Override
        void afterFinish(int worker, Partition p) {
            lock.lock();
            try {
                WorkerSlot w = workers[worker];
                w.partitions = w.partitions + 1;
                w.set("handing off", String.valueOf(p));
            } finally {
                lock.unlock();
            }
        }

        @Override
        void finalize(Partition p, Runnable work) {
            lock.lock();
            try {
                work.run();
                stall();
            } finally {
                lock.unlock();
            }
        }

        private void stall() {
            long end = System.nanoTime() + stallNanos;
            long left;
            while ((left = end - System.nanoTime()) > 0) {
                try {
                    Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        @Override
        <T> T read(Supplier<T> reader) {
            lock.lock();
            try {
                return reader.get();
            } finally {
                lock.unlock();
            }
        }
    }
}
