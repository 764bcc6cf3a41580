package io.cuzk.engine;

import java.util.function.Consumer;

/**
 * The first stage: one thread takes pending partitions in priority order and admits each one,
 * first to a place in the {@link Lookahead} (synthesis runs only so far ahead of the devices), then
 * to its memory (no thundering herd, no missed wake-up: see {@link MemoryBudget}), before handing
 * it to synthesis. While the head of the queue waits for either, the dispatcher looks again after
 * every place or byte given back (and every 50 ms), so a higher-priority partition that arrives
 * meanwhile goes first: a place the dispatcher took is its own until a partition gets it.
 */
final class Dispatcher {
    private final WorkQueue pending;
    private final MemoryBudget budget;
    private final Lookahead lookahead;
    private final Ledger ledger;
    private final Consumer<Partition> synthesis;
    private final Thread thread;
    private volatile boolean running = true;
    private boolean placeInHand; // a lookahead place taken, not yet given to a partition (dispatcher thread only)

    Dispatcher(WorkQueue pending, MemoryBudget budget, Lookahead lookahead, Ledger ledger, Consumer<Partition> synthesis) {
        this.pending = pending;
        this.budget = budget;
        this.lookahead = lookahead;
        this.ledger = ledger;
        this.synthesis = synthesis;
        this.thread = Engine.daemon("cuzk-dispatcher").newThread(this::loop);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (running) {
            try {
                pending.awaitWork(); // one permit per partition added; cancellation may take some out first
                while (running && dispatchHead()) {
                    // the head waited for memory: look again
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Handles the head of the queue; true if it must be looked at again (it waits for memory). */
    private boolean dispatchHead() throws InterruptedException {
        Partition p = pending.first();
        if (p == null) {
            return false;
        }
        if (p.state() != PartitionState.QUEUED) {
            if (pending.remove(p)) {
                ledger.retire(p); // cancelled while queued
            }
            return false;
        }
        if (!placeInHand) {
            if (!lookahead.tryEnter(50_000_000L)) {
                return true; // a place given back, or a new head
            }
            placeInHand = true;
        }
        if (!budget.acquireOrWait(p.reservation(), 50_000_000L)) {
            return true; // a release, or a new head
        }
        if (!pending.remove(p)) {
            budget.release(p.reservation()); // its canceller took it out meanwhile; the place stays in hand
            return false;
        }
        placeInHand = false;
        p.enterLookahead();
        p.reserved = true;
        p.reservedAt = System.nanoTime();
        if (!ledger.move(p, PartitionState.QUEUED, PartitionState.SYNTHESIZING)) {
            ledger.releaseAll(p); // cancelled just now
            return false;
        }
        try {
            synthesis.accept(p);
        } catch (RuntimeException e) {
            ledger.fail(p, e); // the synthesis workers refused it: they are stopping
        }
        return false;
    }

    /** Stops the thread; true if it ended before the deadline (System.nanoTime()). */
    boolean stop(long deadline) throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        boolean ended = !thread.isAlive();
        if (ended && placeInHand) {
            placeInHand = false;
            lookahead.leave();
        }
        return ended;
    }
}
