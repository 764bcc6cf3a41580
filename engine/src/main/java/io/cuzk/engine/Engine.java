package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.CudaBackend;
import io.cuzk.Curve;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.Synthesis;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.commons.lang3.Validate;

/**
 * The proving engine. A job's partitions go through:
 *
 * <ol>
 *   <li>the pending set, ordered by priority then submission; one dispatcher thread takes them in
 *       that order and reserves each one's memory before synthesis (no thundering herd, no missed
 *       wake-up: see {@link MemoryBudget});
 *   <li>synthesis workers, which fill a, b, c into the partition's arenas;
 *   <li>the ready set (a lock-free skip list, priority then age);
 *   <li>device workers, k per device, each looping: take the next ready partition, start it on its
 *       device's stream, wait for its own completion, hand it to a finalizer, take the next. No lock
 *       is held across a launch, a wait, a free or any I/O; with two workers per device one's
 *       partition is queued on the device while the other's runs, so partitions chain back to back;
 *   <li>finalizers, which assemble the proof, close the arenas (memory back to the pool) and
 *       complete the job.
 * </ol>
 *
 * A partition's memory is released in two steps: a, b, c once the device holds what it needs from
 * them, the rest at finalization. A failing partition fails its job and releases its memory; other
 * jobs are untouched.
 */
public final class Engine implements AutoCloseable {
    private final Config config;
    private final MemoryBudget budget;
    private final SlabPool pool;
    private final KeyStore keys;
    private final StatusTracker tracker;
    private final List<ProvingDevice> devices = new ArrayList<>();
    private final ConcurrentSkipListSet<Partition> pending = new ConcurrentSkipListSet<>();
    private final Semaphore pendingPermits = new Semaphore(0);
    private final ConcurrentSkipListSet<Partition> ready = new ConcurrentSkipListSet<>();
    private final Semaphore readyPermits = new Semaphore(0);
    private final ExecutorService synthesis;
    private final ExecutorService finalizers;
    private final Thread dispatcher;
    private final List<Thread> workers = new ArrayList<>();
    private final Set<JobHandle> active = ConcurrentHashMap.newKeySet();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong jobIds = new AtomicLong();
    private final Blinding blinding = Blinding.secure();
    private final Map<PartitionState, AtomicInteger> depth = new EnumMap<>(PartitionState.class);
    private final LongAdder jobsSubmitted = new LongAdder(), jobsDone = new LongAdder(), jobsFailed = new LongAdder(),
            jobsCancelled = new LongAdder(), partitionsDone = new LongAdder(), partitionsFailed = new LongAdder(),
            partitionsCancelled = new LongAdder();
    private final Map<String, Recorder> phaseRecorders = new LinkedHashMap<>();
    private final Map<String, Histogram> phaseTotals = new LinkedHashMap<>();
    private volatile boolean accepting = true;
    private volatile boolean running = true;

    private Engine(Config config) {
        this.config = config;
        this.budget = new MemoryBudget(config.memoryBudgetBytes());
        this.pool = new SlabPool(config.slabAllocator(), config.maxIdlePoolBytes());
        this.keys = new KeyStore(config.keyCacheBytes());
        for (PartitionState s : PartitionState.values()) {
            depth.put(s, new AtomicInteger());
        }
        for (String phase : List.of("queued", "synthesis", "ready", "deviceQueue", "device", "finalize", "total")) {
            phaseRecorders.put(phase, new Recorder(3));
            phaseTotals.put(phase, new Histogram(3));
        }
        List<String> workerNames = new ArrayList<>();
        for (int d = 0; d < config.devices().size(); d++) {
            Backend b = config.devices().get(d);
            String name = "device-" + d + "-" + b.name();
            devices.add(b instanceof CudaBackend gpu ? new CudaDevice(name, gpu, config.workersPerDevice(), () -> !ready.isEmpty())
                    : new CpuDevice(name, b, () -> !ready.isEmpty()));
            for (int w = 0; w < config.workersPerDevice(); w++) {
                workerNames.add("device-" + d + "-worker-" + w);
            }
        }
        String[] names = workerNames.toArray(String[]::new);
        this.tracker = config.tracker() == TrackerMode.CONTENDED ? StatusTracker.contended(names, config.contendedStall())
                : StatusTracker.lockFree(names);
        this.synthesis = Executors.newFixedThreadPool(config.synthesisWorkers(), daemon("cuzk-synthesis"));
        this.finalizers = Executors.newFixedThreadPool(config.finalizers(), daemon("cuzk-finalizer"));
        this.dispatcher = daemon("cuzk-dispatcher").newThread(this::dispatchLoop);
        int w = 0;
        for (ProvingDevice d : devices) {
            for (int k = 0; k < config.workersPerDevice(); k++, w++) {
                int index = w;
                workers.add(Thread.ofPlatform().daemon().name(names[index]).unstarted(() -> workerLoop(index, d)));
            }
        }
    }

    /** Starts an engine: its dispatcher, synthesis workers, device workers and finalizers. */
    public static Engine start(Config config) {
        Engine e = new Engine(Validate.notNull(config, "config"));
        e.dispatcher.start();
        e.workers.forEach(Thread::start);
        return e;
    }

    /** Daemon threads named prefix-0, prefix-1, ...: the engine's pools never keep a JVM alive. */
    static ThreadFactory daemon(String prefix) {
        return Thread.ofPlatform().daemon().name(prefix + "-", 0).factory();
    }

    static long block(long bytes) {
        return 1L << SlabPool.sizeClass(bytes);
    }

    /**
     * Submits a job. Its key is loaded now if it names a file (once per engine); a key whose
     * partitions could never fit the memory budget is refused with {@link BudgetExceededException}.
     */
    public JobHandle submit(Job job) {
        Validate.notNull(job, "job");
        if (!accepting) {
            throw new IllegalStateException("the engine is closed");
        }
        ProvingKey key;
        try {
            key = job.key() != null ? job.key() : keys.acquire(job.keyPath());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + job.keyPath() + ": " + e.getMessage(), e);
        }
        long n = key.domainSize();
        long abc = 3 * block(n * 32);
        long rest = block((long) key.nVars() * 32) + block(n * 32);
        if (abc + rest > budget.capacity()) {
            if (job.key() == null) {
                keys.release(key);
            }
            throw new BudgetExceededException("a partition of " + key.name() + " needs " + (abc + rest) + " bytes but the memory budget is "
                    + budget.capacity() + " bytes");
        }
        List<Partition> parts = new ArrayList<>(job.partitions());
        JobHandle h = new JobHandle(jobIds.incrementAndGet(), job.priority(), Collections.unmodifiableList(parts), this);
        for (int i = 0; i < job.partitions(); i++) {
            parts.add(new Partition(h, job, i, seq.incrementAndGet(), key, abc, rest));
        }
        h.live.set(parts.size());
        active.add(h);
        jobsSubmitted.increment();
        h.future.whenComplete((proofs, error) -> active.remove(h));
        for (Partition p : parts) {
            depth.get(PartitionState.QUEUED).incrementAndGet();
            pending.add(p);
            pendingPermits.release();
        }
        return h;
    }

    // ---- dispatcher --------------------------------------------------------------------------

    /**
     * Takes partitions in priority order and reserves their memory. While the head of the pending
     * set waits for memory, the dispatcher looks again after every release (and every 50 ms), so a
     * higher-priority partition that arrives meanwhile goes first.
     */
    private void dispatchLoop() {
        while (running) {
            try {
                pendingPermits.acquire(); // one permit per partition added; cancellation may remove some first
                while (running) {
                    Partition p;
                    try {
                        p = pending.first();
                    } catch (NoSuchElementException empty) {
                        break;
                    }
                    if (p.state() != PartitionState.QUEUED) {
                        if (pending.remove(p)) {
                            retire(p); // cancelled while queued
                        }
                        break;
                    }
                    if (!budget.acquireOrWait(p.reservation(), 50_000_000L)) {
                        continue; // look again: a release, or a new head
                    }
                    if (!pending.remove(p)) {
                        budget.release(p.reservation()); // its canceller took it out meanwhile
                        break;
                    }
                    p.reserved = true;
                    p.reservedAt = System.nanoTime();
                    if (!move(p, PartitionState.QUEUED, PartitionState.SYNTHESIZING)) {
                        releaseAll(p); // cancelled just now
                        break;
                    }
                    synthesis.execute(() -> synthesize(p));
                    break;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    // ---- synthesis ---------------------------------------------------------------------------

    private void synthesize(Partition p) {
        try {
            p.synthStart = System.nanoTime();
            ProvingKey key = p.key;
            Curve curve = key.curve();
            long n = key.domainSize();
            p.arena = pool.newArena();
            p.abcArena = pool.newArena();
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
            Synthesis.abc(key.coefficients(), key.nCoefficients(), p.witness, p.a, p.b, p.c, config.synthesisThreads());
            p.synthEnd = System.nanoTime();
            if (!move(p, PartitionState.SYNTHESIZING, PartitionState.READY)) {
                releaseAll(p);
                return;
            }
            ready.add(p);
            readyPermits.release();
            long now = System.nanoTime();
            for (ProvingDevice d : devices) {
                d.timeline().wanted(now);
            }
        } catch (Throwable t) {
            fail(p, t);
        }
    }

    // ---- device workers ----------------------------------------------------------------------

    private void workerLoop(int index, ProvingDevice device) {
        while (running) {
            Partition p;
            try {
                readyPermits.acquire();
            } catch (InterruptedException e) {
                return;
            }
            p = ready.pollFirst();
            if (p == null || !move(p, PartitionState.READY, PartitionState.PROVING)) {
                continue; // cancelled meanwhile: its canceller released it
            }
            tracker.beforeStart(index, p);
            CompletableFuture<Groth16Prover.Msms> finish = device.start(p, () -> releaseAbc(p));
            Groth16Prover.Msms msms;
            try {
                msms = finish.join();
            } catch (CompletionException | CancellationException e) {
                tracker.afterFinish(index, p);
                fail(p, e.getCause() != null ? e.getCause() : e);
                continue;
            }
            tracker.afterFinish(index, p);
            try {
                finalizers.execute(() -> finalizePartition(p, msms));
            } catch (RejectedExecutionException stopping) {
                // stop() stops the finalizers after the workers; this is reached only if a worker
                // outlived stop()'s wait for it (a kernel running past the timeout): finish here
                finalizePartition(p, msms);
            }
        }
    }

    // ---- finalizers --------------------------------------------------------------------------

    private void finalizePartition(Partition p, Groth16Prover.Msms msms) {
        tracker.finalize(p, () -> {
            p.finalizeStart = System.nanoTime();
            if (!move(p, PartitionState.PROVING, PartitionState.FINALIZING)) {
                releaseAll(p); // cancelled while on the device
                return;
            }
            try {
                p.proof = Groth16Prover.assemble(p.key, msms, blinding.draw(p.key.curve()), p.publicSignals);
                releaseAll(p);
                p.finalizeEnd = System.nanoTime();
                // Counted and timed before DONE is visible: another finalizer may complete the job
                // as soon as this partition is DONE, and whoever then reads the status must see it.
                partitionsDone.increment();
                recordPhases(p); // its phases all ran, even if it is cancelled below
                if (move(p, PartitionState.FINALIZING, PartitionState.DONE)) {
                    completeIfDone(p.job);
                } else {
                    partitionsDone.decrement(); // cancelled at the last moment
                }
            } catch (Throwable t) {
                fail(p, t);
            }
        });
    }

    private void completeIfDone(JobHandle h) {
        List<Proof> proofs = new ArrayList<>(h.partitions.size());
        for (Partition q : h.partitions) {
            if (q.state() != PartitionState.DONE) {
                return;
            }
            proofs.add(q.proof);
        }
        if (h.future.complete(List.copyOf(proofs))) {
            jobsDone.increment();
        }
    }

    // ---- state, memory, failure, cancellation --------------------------------------------------

    private boolean move(Partition p, PartitionState from, PartitionState to) {
        if (p.transition(from, to)) {
            depth.get(from).decrementAndGet();
            if (!to.terminal()) {
                depth.get(to).incrementAndGet();
            }
            return true;
        }
        return false;
    }

    /** Moves p to a terminal state from wherever it is; returns the state it left, or null if already terminal. */
    private PartitionState end(Partition p, PartitionState to) {
        while (true) {
            PartitionState s = p.state();
            if (s.terminal()) {
                return null;
            }
            if (p.transition(s, to)) {
                depth.get(s).decrementAndGet();
                return s;
            }
        }
    }

    private void releaseAbc(Partition p) {
        if (p.markAbcReleased()) {
            if (p.abcArena != null) {
                p.abcArena.close();
            }
            if (p.reserved) {
                budget.release(p.abcBytes);
            }
        }
    }

    /**
     * Returns all of p's memory and retires it; only p's current owner calls it, so no kernel uses
     * its memory any more.
     */
    private void releaseAll(Partition p) {
        releaseAbc(p);
        if (p.markRestReleased()) {
            if (p.arena != null) {
                p.arena.close();
            }
            if (p.reserved) {
                budget.release(p.restBytes);
            }
        }
        retire(p);
    }

    /** p will not touch its key again; the job's key lease ends with its last partition. */
    private void retire(Partition p) {
        if (p.markRetired() && p.job.live.decrementAndGet() == 0 && p.spec.key() == null) {
            keys.release(p.key);
        }
    }

    /** p failed in the hands of the calling thread: release it, fail its job, drop the job's other partitions. */
    private void fail(Partition p, Throwable t) {
        PartitionState was = end(p, PartitionState.FAILED);
        releaseAll(p);
        if (was == null) {
            return; // already cancelled or failed: nothing more to report
        }
        partitionsFailed.increment();
        if (p.job.future.completeExceptionally(new PartitionFailedException(p.job.id(), p.index, t))) {
            jobsFailed.increment();
            dropPartitions(p.job);
        }
    }

    boolean cancel(JobHandle h) {
        if (!h.future.completeExceptionally(new CancellationException("job " + h.id() + " was cancelled"))) {
            return false;
        }
        jobsCancelled.increment();
        dropPartitions(h);
        return true;
    }

    /**
     * Drops a job's unfinished partitions. Those waiting in a queue are released here; those in a
     * worker's hands are released by that worker when it sees the state.
     */
    private void dropPartitions(JobHandle h) {
        for (Partition q : h.partitions) {
            PartitionState was = end(q, PartitionState.CANCELLED);
            if (was == null) {
                continue;
            }
            partitionsCancelled.increment();
            if (was == PartitionState.QUEUED) {
                if (pending.remove(q)) {
                    retire(q); // else the dispatcher took it: it sees the state and releases it
                }
            } else if (was == PartitionState.READY) {
                ready.remove(q);
                releaseAll(q);
            }
        }
    }

    private void recordPhases(Partition p) {
        record("queued", p.reservedAt - p.submitted);
        record("synthesis", p.synthEnd - p.synthStart);
        record("ready", p.deviceQueued - p.synthEnd);
        record("deviceQueue", p.deviceStart - p.deviceQueued);
        record("device", p.deviceEnd - p.deviceStart);
        record("finalize", p.finalizeEnd - p.finalizeStart);
        record("total", p.finalizeEnd - p.submitted);
    }

    private void record(String phase, long nanos) {
        phaseRecorders.get(phase).recordValue(Math.max(0, nanos / 1000));
    }

    // ---- status ----------------------------------------------------------------------------------

    /** An immutable snapshot; with the lock-free tracker, taking it never blocks a worker. */
    public EngineStatus status() {
        return tracker.read(this::snapshot);
    }

    private EngineStatus snapshot() {
        long now = System.nanoTime();
        List<EngineStatus.Device> ds = new ArrayList<>();
        for (ProvingDevice d : devices) {
            DeviceTimeline t = d.timeline();
            Histogram g = t.gapHistogram();
            ds.add(new EngineStatus.Device(t.name, t.partitions(), t.utilizationWhileBacklog(), t.spanUtilization(),
                    t.utilizationOver(10_000_000_000L, now), percentiles(g), g.getTotalCount(), t.longestChain(), t.busyNanos() / 1e9));
        }
        Map<PartitionState, Integer> queues = new EnumMap<>(PartitionState.class);
        for (PartitionState s : PartitionState.values()) {
            if (!s.terminal()) {
                queues.put(s, depth.get(s).get());
            }
        }
        EngineStatus.Memory mem = new EngineStatus.Memory(budget.capacity(), budget.used(), budget.peak(), pool.allocatedBytes(),
                pool.idleBytes(), pool.pinnedBytes(), pool.outstandingBlocks(), pool.systemAllocations(), keys.resident(),
                keys.residentBytes());
        EngineStatus.Counters counters = new EngineStatus.Counters(jobsSubmitted.sum(), jobsDone.sum(), jobsFailed.sum(),
                jobsCancelled.sum(), partitionsDone.sum(), partitionsFailed.sum(), partitionsCancelled.sum());
        List<EngineStatus.Worker> ws = new ArrayList<>();
        for (StatusTracker.WorkerSlot s : tracker.workers) {
            ws.add(new EngineStatus.Worker(s.name, s.activity, s.partition, (now - s.since) / 1e9, s.partitions));
        }
        Map<String, EngineStatus.Percentiles> phases = new LinkedHashMap<>();
        synchronized (phaseTotals) {
            for (Map.Entry<String, Recorder> e : phaseRecorders.entrySet()) {
                Histogram total = phaseTotals.get(e.getKey());
                total.add(e.getValue().getIntervalHistogram());
                phases.put(e.getKey(), percentiles(total));
            }
        }
        return new EngineStatus(tracker.mode, List.copyOf(ds), Map.copyOf(queues), mem, counters, List.copyOf(ws), phases);
    }

    private static EngineStatus.Percentiles percentiles(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new EngineStatus.Percentiles(0, 0, 0, 0);
        }
        return new EngineStatus.Percentiles(h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                h.getMaxValue() / 1000.0, h.getTotalCount());
    }

    /** The engine's settings. */
    public Config config() {
        return config;
    }

    /** Keys parsed so far (a key shared by many jobs is parsed once). */
    public long keyLoads() {
        return keys.loads();
    }

    // ---- shutdown ----------------------------------------------------------------------------

    /** Stops accepting jobs, waits for the submitted ones to finish, then stops and frees everything. */
    @Override
    public void close() {
        accepting = false;
        for (JobHandle h : List.copyOf(active)) {
            try {
                h.future.handle((v, e) -> null).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception ignored) {
                // a failed job is done too
            }
        }
        stop();
    }

    /** Stops accepting jobs, cancels the submitted ones, then stops and frees everything. */
    public void shutdownNow() {
        accepting = false;
        for (JobHandle h : List.copyOf(active)) {
            h.cancel();
        }
        stop();
    }

    // Stops each stage after the stages that feed it: the dispatcher (feeds synthesis), synthesis
    // (feeds the ready queue), the device workers (feed the finalizers, and may be waiting for a
    // kernel that is still running), then the finalizers.
    private void stop() {
        running = false;
        try {
            dispatcher.interrupt();
            dispatcher.join(10_000);
            synthesis.shutdown();
            synthesis.awaitTermination(60, TimeUnit.SECONDS);
            workers.forEach(Thread::interrupt);
            for (Thread t : workers) {
                t.join(60_000);
            }
            finalizers.shutdown();
            finalizers.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // partitions still queued when work stopped give their memory and keys back here
        for (Partition p : List.copyOf(ready)) {
            if (end(p, PartitionState.CANCELLED) != null) {
                releaseAll(p);
            }
        }
        for (Partition p : List.copyOf(pending)) {
            end(p, PartitionState.CANCELLED);
            retire(p);
        }
        devices.forEach(ProvingDevice::close);
        keys.close();
        pool.close();
    }
}
