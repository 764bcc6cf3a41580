package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.Structs;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_h_config;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.commons.lang3.Validate;

/**
 * The native CPU backend: bucket-method MSM over signed windows and radix-2 NTTs, spread over a
 * shared native thread pool. Each kernel call blocks its Java thread until the result is ready.
 *
 * <p>Its lanes all feed one queue, a single thread that runs one proof at a time on all of the
 * backend's threads: the CPU is one device, and proofs queued by two callers run back to back.
 * The thread exists only while proofs are queued.
 */
public final class CpuBackend extends Backend {
    static final CpuBackend ALL_THREADS = new CpuBackend(0, 0);

    private final int threads;
    private final int windowBits;
    private volatile ThreadPoolExecutor queue; // made on the first lane's first proof
    /** The last proof's end, told by the next proof once it has started (the queue's thread only). */
    private volatile Runnable deferredEnd;

    /**
     * @param threads threads per call, 0 for all hardware threads
     * @param windowBits MSM window width 2..20, or 0 to choose it from the size
     */
    public CpuBackend(int threads, int windowBits) {
        Validate.isTrue(threads >= 0, "threads must not be negative: %d", threads);
        Validate.isTrue(windowBits == 0 || (windowBits >= 2 && windowBits <= 20), "window bits must be 0 or 2..20: %d", windowBits);
        this.threads = threads;
        this.windowBits = windowBits;
    }

    /** One thread at most, none while idle: ordered, and nothing left running by a backend nobody uses. */
    private ThreadPoolExecutor queue() {
        ThreadPoolExecutor q = queue;
        if (q == null) {
            synchronized (this) {
                q = queue;
                if (q == null) {
                    q = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                            Thread.ofPlatform().daemon().name("cuzk-cpu-device").factory());
                    q.allowCoreThreadTimeOut(true);
                    queue = q;
                }
            }
        }
        return q;
    }

    public int threads() {
        return threads;
    }

    @Override
    public int hostThreads() {
        return threads;
    }

    @Override
    public boolean prefersPinnedHostMemory() {
        return false;
    }

    @Override
    public String name() {
        return "cpu(" + (threads == 0 ? "all" : Integer.toString(threads)) + " threads)";
    }

    @Override
    Point msmChecked(PointVector bases, ScalarVector scalars) {
        Curve curve = bases.curve();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_msm_config.allocate(a);
            cuzk_msm_config.curve(cfg, curve.id());
            cuzk_msm_config.group(cfg, bases.group().id());
            cuzk_msm_config.scalar_form(cfg, scalars.form().id());
            cuzk_msm_config.window_bits(cfg, windowBits);
            cuzk_msm_config.threads(cfg, threads);
            cuzk_msm_config.count(cfg, bases.size());
            MemorySegment out = a.allocate(curve.pointBytes(bases.group()), 8);
            Checked.check(cuzk_h.cuzk_msm(cfg, bases.segment(), scalars.segment(), out), "cuzk_msm");
            return new Point(curve, bases.group(), out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Override
    void nttChecked(ScalarVector data, NttKind kind, int logN, BigInteger shift) {
        Curve curve = data.curve();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, curve.id());
            cuzk_ntt_config.direction(cfg, kind.direction());
            cuzk_ntt_config.coset(cfg, kind.coset() ? 1 : 0);
            cuzk_ntt_config.log_n(cfg, logN);
            cuzk_ntt_config.threads(cfg, threads);
            Structs.setAddress(cfg, cuzk_ntt_config.coset_shift$offset(), shift == null ? MemorySegment.NULL
                    : montgomery(a, curve, shift).segment());
            Checked.check(cuzk_h.cuzk_ntt(cfg, data.segment()), "cuzk_ntt");
        }
    }

    static ScalarVector montgomery(Arena a, Curve curve, BigInteger v) {
        ScalarVector one = ScalarVector.allocate(a, curve, 1, ScalarForm.MONTGOMERY);
        one.set(0, v);
        return one;
    }

    /** One native call does every step of H (the six NTTs and the element-wise steps). */
    @Override
    void groth16HChecked(ScalarVector a, ScalarVector b, ScalarVector c, ScalarForm hForm) {
        int flags = hForm == ScalarForm.CANONICAL ? cuzk_h.CUZK_H_CANONICAL() : 0;
        callH(a.curve(), Long.numberOfTrailingZeros(a.size()), flags, a.segment(), b.segment(), c.segment());
    }

    /** Links the native calls of a proof and makes the tables H keeps per domain size. */
    @Override
    void prepareGroth16Checked(Curve curve, int logN) {
        linkChecked();
        callH(curve, logN, cuzk_h.CUZK_H_PREPARE(), MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
    }

    /** The proof's calls share one shape (ABI 2), so the first links it for all. */
    @Override
    void linkChecked() {
        cuzk_h.cuzk_groth16_abc$handle();
        cuzk_h.cuzk_groth16_h$handle();
        cuzk_h.cuzk_msm$handle();
    }

    private void callH(Curve curve, int logN, int flags, MemorySegment a, MemorySegment b, MemorySegment c) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_h_config.allocate(arena);
            cuzk_h_config.curve(cfg, curve.id());
            cuzk_h_config.log_n(cfg, logN);
            cuzk_h_config.threads(cfg, threads);
            cuzk_h_config.flags(cfg, flags);
            Checked.check(cuzk_h.cuzk_groth16_h(cfg, a, b, c), "cuzk_groth16_h");
        }
    }

    /** The CPU reads the key's points where they are. */
    @Override
    Resident residentChecked(Groth16Bases bases) {
        return new Resident(this, bases, null);
    }

    /** H leaves h canonical in a, which the H MSM takes as it is. */
    @Override
    Groth16Msms groth16Checked(Resident bases, Groth16Inputs in) {
        ScalarVector h = groth16H(in.a(), in.b(), in.c(), ScalarForm.CANONICAL);
        return msms(bases.bases(), in.witness(), h);
    }

    @Override
    public Lane openLane() {
        NativeLibrary.require();
        return new CpuLane();
    }

    /** A lane of the CPU: its proofs join the backend's one queue. */
    final class CpuLane implements Lane {
        private volatile boolean closed;

        @Override
        public Pending start(Resident bases, Groth16Inputs in, Events events) {
            Validate.validState(!closed, "the lane is closed");
            checkProof(bases, in);
            Validate.notNull(events, "events");
            CompletableFuture<Groth16Msms> done = new CompletableFuture<>();
            queue().execute(() -> run(bases.bases(), in, events, done));
            return () -> {
                try {
                    return done.join();
                } catch (CompletionException e) {
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw e.getCause() instanceof RuntimeException re ? re : e;
                }
            };
        }

        /**
         * Runs one proof on the queue's thread: H, then the device's own copy of h in the scratch
         * arena (what a GPU uploads before a, b and c can go), then abcTaken, then the MSMs. When
         * another proof is already queued, this one's end (its ended event and waking its waiter) is
         * told only once the next has started, as a GPU starts its next queued kernels before the
         * host hears of the last: no wake-up, and so no preemption of this thread by the threads it
         * wakes, lies between two proofs.
         */
        private void run(Groth16Bases g, Groth16Inputs in, Events events, CompletableFuture<Groth16Msms> done) {
            long start = System.nanoTime();
            Runnable previous = deferredEnd;
            deferredEnd = null;
            if (previous != null) {
                previous.run();
            }
            Groth16Msms result = null;
            Throwable failure = null;
            try {
                events.started(start);
                ScalarVector inA = groth16H(in.a(), in.b(), in.c(), ScalarForm.CANONICAL);
                events.hComputed(System.nanoTime());
                MemorySegment copy = in.scratch().allocate(inA.segment().byteSize(), 8);
                MemorySegment.copy(inA.segment(), 0, copy, 0, copy.byteSize());
                ScalarVector h = ScalarVector.wrap(g.curve(), ScalarForm.CANONICAL, copy);
                events.abcTaken();
                result = msms(g, in.witness(), h);
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            long end = System.nanoTime();
            Groth16Msms r = result;
            Throwable f = failure;
            Runnable told = () -> {
                Throwable why = f;
                try {
                    events.ended(end);
                } catch (RuntimeException | Error e) {
                    if (why == null) {
                        why = e;
                    } else {
                        why.addSuppressed(e);
                    }
                }
                if (why == null) {
                    done.complete(r);
                } else {
                    done.completeExceptionally(why);
                }
            };
            // the queue has one thread: a proof queued now runs next on this thread and tells this
            // one's end; with none queued, it is told at once
            if (queue.getQueue().isEmpty()) {
                told.run();
            } else {
                deferredEnd = told;
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
