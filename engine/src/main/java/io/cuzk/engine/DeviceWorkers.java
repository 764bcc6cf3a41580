package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.Groth16Msms;
import java.util.ArrayList;
import java.util.List;

/**
 * The third stage: k workers per device, each looping: take the next ready partition, start it on
 * its lane of the device, wait for its own kernels, hand it to a finalizer, take the next. No lock
 * is held across a launch, a wait, a free or any I/O; with two workers per device one's partition
 * is queued on the device while the other's runs, so partitions chain back to back. Whatever a
 * device throws (an exception, an Error, a refused hand-off) fails that partition only: the worker
 * goes on with the next.
 */
final class DeviceWorkers {
    private final WorkQueue ready;
    private final Ledger ledger;
    private final StatusTracker tracker;
    private final Finalizers finalizers;
    private final Lookahead lookahead;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    DeviceWorkers(List<ProvingDevice> devices, int perDevice, WorkQueue ready, Ledger ledger, StatusTracker tracker,
            Finalizers finalizers, Lookahead lookahead, String[] names) {
        this.ready = ready;
        this.lookahead = lookahead;
        this.ledger = ledger;
        this.tracker = tracker;
        this.finalizers = finalizers;
        int w = 0;
        for (ProvingDevice d : devices) {
            for (int lane = 0; lane < perDevice; lane++, w++) {
                int index = w, l = lane;
                threads.add(Thread.ofPlatform().daemon().name(names[index]).unstarted(() -> loop(index, d, l)));
            }
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    private void loop(int index, ProvingDevice device, int lane) {
        while (running) {
            Partition p;
            try {
                p = ready.take();
            } catch (InterruptedException e) {
                return;
            }
            if (p == null || !ledger.move(p, PartitionState.READY, PartitionState.PROVING)) {
                continue; // cancelled meanwhile: its canceller released it
            }
            ledger.leaveLookahead(p); // the dispatcher may admit the next one now
            prove(index, device, lane, p);
        }
    }

    private void prove(int index, ProvingDevice device, int lane, Partition p) {
        p.deviceWorker = Thread.currentThread().getName();
        p.taken = System.nanoTime();
        tracker.beforeStart(index, p);
        Groth16Msms msms;
        long t0 = System.nanoTime();
        try {
            Backend.Pending pending = device.start(lane, p, () -> ledger.releaseAbc(p));
            msms = pending.finish();
            lookahead.deviceTook(System.nanoTime() - t0);
        } catch (Throwable t) {
            tracker.afterFinish(index, p);
            ledger.fail(p, t);
            return;
        }
        tracker.afterFinish(index, p);
        p.handedOff = System.nanoTime();
        finalizers.submit(p, msms);
    }

    /** Stops the workers; true if every one ended before the deadline (none is inside a kernel). */
    boolean stop(long deadline) throws InterruptedException {
        running = false;
        threads.forEach(Thread::interrupt);
        boolean all = true;
        for (Thread t : threads) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            all &= !t.isAlive();
        }
        return all;
    }
}
