package io.cuzk.engine;

import io.cuzk.Curve;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Synthesis;
import io.cuzk.groth16.Witness;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The second stage: workers that fill a reserved partition's a, b and c into its arenas (the
 * witness is copied into the partition's own memory too, so that a caller's witness may go), then
 * put it on the ready queue and tell the devices that work waits.
 */
final class SynthesisWorkers {
    private final ExecutorService pool;
    private final SlabPool slabs;
    private final WorkQueue ready;
    private final Ledger ledger;
    private final int threads;
    private final List<ProvingDevice> devices;

    SynthesisWorkers(int workers, int threads, SlabPool slabs, WorkQueue ready, Ledger ledger, List<ProvingDevice> devices) {
        this.pool = Executors.newFixedThreadPool(workers, Engine.daemon("cuzk-synthesis"));
        this.threads = threads;
        this.slabs = slabs;
        this.ready = ready;
        this.ledger = ledger;
        this.devices = devices;
    }

    /** Queues p's synthesis (throws RejectedExecutionException once stopping). */
    void submit(Partition p) {
        pool.execute(() -> synthesize(p));
    }

    private void synthesize(Partition p) {
        try {
            p.synthStart = System.nanoTime();
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
        pool.shutdown();
        return pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
}
