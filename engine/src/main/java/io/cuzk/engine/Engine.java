package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.groth16.KeyStore;
import io.cuzk.groth16.ProvingKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.apache.commons.lang3.Validate;

/**
 * The proving engine. A job's partitions go through its stages, in order of the data path:
 *
 * <ol>
 *   <li>the {@link Dispatcher}: the pending queue, ordered by priority then submission; one thread
 *       takes partitions in that order and admits each one to a place in the {@link Lookahead}
 *       (synthesis runs only as far ahead of the devices as keeps them fed, so memory follows the
 *       work in flight, not the backlog) and to its memory ({@link MemoryBudget});
 *   <li>the {@link SynthesisWorkers}, which fill a, b, c into the partition's arenas, highest
 *       priority first;
 *   <li>the ready queue (lock-free, priority then age);
 *   <li>the {@link DeviceWorkers}, k per device, each chaining partitions on its lane of the device;
 *   <li>the {@link Finalizers}, which assemble the proof, return the memory and complete the job.
 * </ol>
 *
 * Every stage moves partitions through the {@link Ledger}, which owns the state machine, the
 * release of memory and keys, failure and cancellation. A partition's memory is released in two
 * steps: a, b, c once the device holds what it needs from them, the rest at finalization. A failing
 * partition fails its job and releases its memory; other jobs are untouched.
 */
public final class Engine implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.cuzk.engine");

    private final Config config;
    private final MemoryBudget budget;
    private final SlabPool pool;
    private final KeyStore keys;
    private final EngineMetrics metrics = new EngineMetrics();
    private final WorkQueue pending = new WorkQueue();
    private final WorkQueue ready = new WorkQueue();
    private final Ledger ledger;
    private final Lookahead lookahead;
    private final StatusTracker tracker;
    private final List<ProvingDevice> devices = new ArrayList<>();
    private final Dispatcher dispatcher;
    private final SynthesisWorkers synthesis;
    private final DeviceWorkers workers;
    private final Finalizers finalizers;
    private final Set<JobHandle> active = ConcurrentHashMap.newKeySet();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong jobIds = new AtomicLong();
    private final AtomicInteger submitting = new AtomicInteger();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean accepting = true;

    /** Makes a device of a backend: one {@link BackendDevice}; the tests make others. */
    interface DeviceFactory {
        ProvingDevice create(String name, Backend backend, int lanes, java.util.function.BooleanSupplier readyWork);
    }

    private Engine(Config config, Function<String[], StatusTracker> trackers, DeviceFactory deviceFactory) {
        this.config = config;
        this.budget = new MemoryBudget(config.memoryBudgetBytes());
        this.pool = new SlabPool(config.slabAllocator(), config.maxIdlePoolBytes(), config.poolIdleRelease());
        this.keys = new KeyStore(config.keyCacheBytes());
        int deviceWorkers = config.devices().size() * config.workersPerDevice();
        this.lookahead = new Lookahead(config.synthesisWorkers(), deviceWorkers, config.devices().size(), config.readyPerWorker());
        this.ledger = new Ledger(budget, pending, ready, metrics, lookahead);
        List<String> workerNames = new ArrayList<>();
        for (int d = 0; d < config.devices().size(); d++) {
            Backend b = config.devices().get(d);
            devices.add(deviceFactory.create("device-" + d + "-" + b.name(), b, config.workersPerDevice(), () -> !ready.isEmpty()));
            for (int w = 0; w < config.workersPerDevice(); w++) {
                workerNames.add("device-" + d + "-worker-" + w);
            }
        }
        String[] names = workerNames.toArray(String[]::new);
        this.tracker = trackers.apply(names);
        this.synthesis = new SynthesisWorkers(config.synthesisWorkers(), config.synthesisThreads(), pool, ready, ledger,
                List.copyOf(devices), lookahead);
        this.dispatcher = new Dispatcher(pending, budget, lookahead, ledger, synthesis::submit);
        this.finalizers = new Finalizers(config.finalizers(), ledger, tracker, metrics, config.selfCheck());
        this.workers = new DeviceWorkers(devices, config.workersPerDevice(), ready, ledger, tracker, finalizers, lookahead, names);
    }

    /** Starts an engine: its dispatcher, synthesis workers, device workers and finalizers. */
    public static Engine start(Config config) {
        return start(config, StatusTracker::lockFree, BackendDevice::new);
    }

    static Engine start(Config config, Function<String[], StatusTracker> trackers, DeviceFactory devices) {
        Engine e = new Engine(Validate.notNull(config, "config"), trackers, devices);
        e.synthesis.start();
        e.dispatcher.start();
        e.workers.start();
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
     * Submits a job. Its key is read now if it names a file (once per version of the file, shared
     * by every job of that key); a key whose partitions could never fit the memory budget is refused
     * with {@link BudgetExceededException}; a closed engine refuses with {@link IllegalStateException}.
     * A job this method returned is always completed: with its proofs, its first failure, or a
     * cancellation (its own, or the engine's when it is shut down).
     */
    public JobHandle submit(Job job) {
        Validate.notNull(job, "job");
        // close() waits for submits in progress after it stops accepting, so every job accepted
        // here is in `active` before close() looks at it
        submitting.incrementAndGet();
        try {
            if (!accepting) {
                throw new IllegalStateException("the engine is closed");
            }
            ProvingKey key;
            Runnable releaseKey;
            if (job.key() != null) {
                key = job.key();
                releaseKey = () -> { };
            } else {
                KeyStore.Lease lease;
                try {
                    lease = keys.acquire(job.keyPath());
                } catch (IOException e) {
                    throw new UncheckedIOException("reading " + job.keyPath() + ": " + e.getMessage(), e);
                }
                key = lease.key();
                releaseKey = lease::close;
            }
            long n = key.domainSize();
            long abc = 3 * block(n * 32);
            long rest = block((long) key.nVars() * 32) + block(n * 32);
            if (abc + rest > budget.capacity()) {
                releaseKey.run();
                throw new BudgetExceededException("a partition of " + key.name() + " needs " + (abc + rest)
                        + " bytes but the memory budget is " + budget.capacity() + " bytes");
            }
            List<Partition> parts = new ArrayList<>(job.partitions());
            JobHandle h = new JobHandle(jobIds.incrementAndGet(), job.priority(), Collections.unmodifiableList(parts), releaseKey, ledger);
            for (int i = 0; i < job.partitions(); i++) {
                parts.add(new Partition(h, job, i, seq.incrementAndGet(), key, abc, rest));
            }
            h.live.set(parts.size());
            active.add(h);
            metrics.jobsSubmitted.increment();
            h.future.whenComplete((proofs, error) -> active.remove(h));
            for (Partition p : parts) {
                ledger.admit(p);
            }
            return h;
        } finally {
            submitting.decrementAndGet();
        }
    }

    // ---- status ----------------------------------------------------------------------------------

    /**
     * The last partitions proved (up to 65,536, oldest first): their threads and phase times, for a
     * trace of every worker. Never blocks a worker.
     */
    public List<PartitionTrace> trace() {
        return metrics.trace.since(Long.MIN_VALUE);
    }

    /** {@link #trace()}, of the partitions finalized at or after sinceNanos (System.nanoTime()). */
    public List<PartitionTrace> trace(long sinceNanos) {
        return metrics.trace.since(sinceNanos);
    }

    /**
     * Per device (by name, in the engine's order), its busy share in each of {@code bins} bins of
     * {@code bin} ending now, oldest first: the status page's utilization graph (0.2 s bins). Read
     * from the devices' timelines without blocking them.
     */
    public Map<String, double[]> busyShares(Duration bin, int bins) {
        Validate.isTrue(bin != null && bin.toNanos() > 0 && bins > 0 && bins <= 1_000_000, "a positive bin and 1..1,000,000 bins");
        long now = System.nanoTime();
        Map<String, double[]> out = new java.util.LinkedHashMap<>();
        for (ProvingDevice d : devices) {
            out.put(d.timeline().name, d.timeline().busyShares(now, bin.toNanos(), bins));
        }
        return out;
    }

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
                    t.utilizationOver(10_000_000_000L, now), EngineMetrics.percentiles(g), g.getTotalCount(), t.longestChain(),
                    t.busyNanos() / 1e9));
        }
        EngineStatus.Memory mem = new EngineStatus.Memory(budget.capacity(), budget.used(), budget.peak(), pool.allocatedBytes(),
                pool.idleBytes(), pool.allocatedBytes() - pool.idleBytes(), pool.peakBytes(), pool.returnedBytes(), pool.returnedBlocks(),
                pool.pinnedBytes(), pool.outstandingBlocks(), pool.systemAllocations(), keys.resident(), keys.residentBytes());
        EngineStatus.Lookahead look = new EngineStatus.Lookahead(lookahead.limit(), lookahead.admitted(), lookahead.peak());
        List<EngineStatus.Worker> ws = new ArrayList<>();
        for (StatusTracker.WorkerSlot s : tracker.workers) {
            ws.add(new EngineStatus.Worker(s.name, s.activity, s.partition, (now - s.since) / 1e9, s.partitions));
        }
        return new EngineStatus(tracker.mode, List.copyOf(ds), ledger.depths(), mem, look, metrics.counters(), List.copyOf(ws),
                metrics.phases());
    }

    /** The engine's settings. */
    public Config config() {
        return config;
    }

    /** Key files read so far (a key shared by many jobs is read once). */
    public long keyLoads() {
        return keys.loads();
    }

    // ---- shutdown ----------------------------------------------------------------------------

    /**
     * Stops accepting jobs, waits for every submitted one to complete (an interrupt does not cut
     * this short: the thread's interrupt status is set again on return), then stops the stages and
     * frees everything. Calling it again does nothing.
     */
    @Override
    public void close() {
        stopAccepting();
        boolean interrupted = false;
        for (JobHandle h : List.copyOf(active)) {
            while (true) {
                try {
                    h.future.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | CancellationException done) {
                    break; // a failed or cancelled job is done too
                }
            }
        }
        stop();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops accepting jobs, cancels the submitted ones (their waiters are told), then stops and frees everything. */
    public void shutdownNow() {
        stopAccepting();
        for (JobHandle h : List.copyOf(active)) {
            ledger.cancel(h, new CancellationException("job " + h.id() + " was cancelled: the engine was shut down"));
        }
        stop();
    }

    /** After this returns no submit is in progress and none will be accepted: `active` is complete. */
    private void stopAccepting() {
        accepting = false;
        while (submitting.get() != 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Stops each stage after the stages that feed it, within the configured shutdown timeout: the
     * dispatcher (feeds synthesis), synthesis (feeds the ready queue), the device workers (feed the
     * finalizers, and may be waiting for a kernel), then the finalizers. Jobs still unfinished are
     * cancelled, so that nobody waits for them. Devices, keys and pooled memory are freed only if
     * every stage stopped: a kernel still running after the timeout keeps what it uses.
     */
    private void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
        boolean quiet;
        boolean interrupted = false;
        try {
            quiet = dispatcher.stop(deadline);
            quiet &= synthesis.stop(deadline);
            quiet &= workers.stop(deadline);
            quiet &= finalizers.stop(deadline);
        } catch (InterruptedException e) {
            interrupted = true;
            quiet = false;
        }
        for (JobHandle h : List.copyOf(active)) {
            ledger.cancel(h, new CancellationException("job " + h.id() + " was cancelled: the engine stopped before it finished"));
        }
        if (quiet) {
            devices.forEach(ProvingDevice::close);
            keys.close();
            pool.close();
        } else {
            LOG.log(System.Logger.Level.WARNING, "cuzk engine: work still running " + config.shutdownTimeout()
                    + " after the engine stopped; its devices, keys and memory are left to the process");
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
