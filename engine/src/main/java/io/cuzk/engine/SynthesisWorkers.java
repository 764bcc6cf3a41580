package io.cuzk.engine;

import io.cuzk.Curve;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Synthesis;
import io.cuzk.groth16.Witness;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The second stage: workers that fill a reserved partition's a, b and c into its arenas (the
 * witness is copied into the partition's own memory too, so that a caller's witness may go), then
 * put it on the ready queue and tell the devices that work waits. Admitted partitions wait for a
 * worker in priority order (then age), so an urgent one is synthesized next.
 */
final class SynthesisWorkers {
    private final WorkQueue queue = new WorkQueue();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;
    private final SlabPool slabs;
    private final Lookahead lookahead;
    private final WorkQueue ready;
    private final Ledger ledger;
    private final int threads;
    private final List<ProvingDevice> devices;

    SynthesisWorkers(int workers, int threads, SlabPool slabs, WorkQueue ready, Ledger ledger, List<ProvingDevice> devices,
            Lookahead lookahead) {
        for (int i = 0; i < workers; i++) {
            this.workers.add(Thread.ofPlatform().daemon().name("cuzk-synthesis-" + i).unstarted(this::loop));
        }
        this.lookahead = lookahead;
        this.threads = threads;
        this.slabs = slabs;
        this.ready = ready;
        this.ledger = ledger;
        this.devices = devices;
    }

    void start() {
        workers.forEach(Thread::start);
    }

    /** Queues p's synthesis (throws RejectedExecutionException once stopping). */
    void submit(Partition p) {
        if (stopping) {
            throw new RejectedExecutionException("the synthesis workers are stopping");
        }
        queue.add(p);
    }

    /** Takes partitions, highest priority first, until stopped and nothing is queued. */
    private void loop() {
        while (true) {
            Partition p;
            try {
                p = queue.takeWithin(50_000_000L);
            } catch (InterruptedException e) {
                return;
            }
            if (p != null) {
                synthesize(p);
            } else if (stopping && queue.isEmpty()) {
                return;
            }
        }
    }

    private void synthesize(Partition p) {
        if (p.state() != PartitionState.SYNTHESIZING) {
            ledger.releaseAll(p); // cancelled while it waited for a worker
            return;
        }
        try {
            p.synthStart = System.nanoTime();
            p.synthesisWorker = Thread.currentThread().getName();
            ProvingKey key = p.key;
            Curve curve = key.curve();
            long n = key.domainSize();
            p.arena = slabs.newArena();
            p.abcArena = slabs.newArena();
            Witness w = p.spec.openWitness(p.index);
            try {
                w.requireFits(key);
                MemorySegment wm = p.arena.allocate(w.values().segment().byteSize(), 8);
                MemorySegment.copy(w.values().segment(), 0, wm, 0, wm.byteSize());
                p.witness = ScalarVector.wrap(curve, ScalarForm.CANONICAL, wm);
                p.publicSignals = w.publicSignals(key.nPublic());
            } finally {
                if (p.spec.ownsWitnesses()) {
                    w.close();
                }
            }
            p.a = ScalarVector.wrap(curve, ScalarForm.MONTGOMERY, p.abcArena.allocate(n * 32, 8));
            p.b = ScalarVector.wrap(curve, ScalarForm.MONTGOMERY, p.abcArena.allocate(n * 32, 8));
            p.c = ScalarVector.wrap(curve, ScalarForm.MONTGOMERY, p.abcArena.allocate(n * 32, 8));
            Synthesis.abc(key, p.witness, p.a, p.b, p.c, threads);
            p.synthEnd = System.nanoTime();
            lookahead.synthesisTook(p.synthEnd - p.synthStart);
            if (!ledger.move(p, PartitionState.SYNTHESIZING, PartitionState.READY)) {
                ledger.releaseAll(p); // cancelled meanwhile
                return;
            }
            ready.add(p);
            long now = System.nanoTime();
            for (ProvingDevice d : devices) {
                d.timeline().wanted(now);
            }
        } catch (Throwable t) {
            ledger.fail(p, t);
        }
    }

    /** Lets queued syntheses finish; true if they did before the deadline. */
    boolean stop(long deadline) throws InterruptedException {
        stopping = true;
        boolean all = true;
        for (Thread t : workers) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            all &= !t.isAlive();
        }
        return all;
    }
}
