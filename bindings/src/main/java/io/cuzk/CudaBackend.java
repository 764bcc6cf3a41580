package io.cuzk;

import io.cuzk.cuda.CudaRuntime;
import io.cuzk.cuda.Device;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Event;
import io.cuzk.cuda.Staging;
import io.cuzk.cuda.Stream;
import io.cuzk.internal.CudaChecked;
import io.cuzk.internal.CudaLibrary;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.Structs;
import io.cuzk.internal.ffi.cuzk_cuda_h;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.WeakReference;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.commons.lang3.Validate;

/**
 * The CUDA backend on one device: G1 and G2 MSMs, NTTs and Groth16's H run as CUDA kernels
 * (libcuzk_cuda). A proof's G2 MSM runs where its {@link G2Placement} says: on a host thread with
 * the CPU backend, overlapped with the GPU's work (SupraSeal's choice), or on the device; by
 * default it starts on the host and moves to the device for a key whose proofs keep waiting for
 * it. The kernels on host vectors copy them in and out and block; a lane's proofs keep the key's
 * points resident on the device and queue their kernels on the lane's stream. {@link #startMsm}
 * and {@link #startNtt} queue single kernels on device-resident data, for benchmarks.
 */
public final class CudaBackend extends Backend {
    private final Device device;
    private final Backend cpu;
    private final String name;
    private final G2Placement g2Placement;
    /** Where lanes run their host G2 MSMs (which use all of the CPU backend's threads); idle threads end. */
    private final ExecutorService g2;
    /**
     * Pinned chunks through which host vectors that are not pinned go to and from the device (see
     * {@link Staging}): one set per concurrent caller, made on first need and kept (16 MiB each).
     */
    private final ConcurrentLinkedDeque<Staging> staging = new ConcurrentLinkedDeque<>();
    /** The device's work, for giving its pooled memory back once it has been idle (see {@link #open}). */
    private final IdleWatch idle;
    private final long poolKeepBytes;
    /** Device memory a resident key's G1 point sets may take beyond the points themselves, for shifted copies. */
    private final long precomputeBytes;

    /** The one thread that checks every CUDA backend for idle pooled memory; it holds none of them alive. */
    private static final ScheduledExecutorService TRIMMER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("cuzk-cuda-pool-trim").factory());

    private CudaBackend(Device device, Backend cpu, G2Placement g2Placement, long poolKeepBytes, Duration poolIdle,
            long precomputeBytes) {
        this.device = device;
        this.cpu = cpu;
        this.g2Placement = Validate.notNull(g2Placement, "g2Placement");
        this.poolKeepBytes = poolKeepBytes;
        this.precomputeBytes = precomputeBytes;
        this.idle = new IdleWatch(poolIdle.toNanos(), System.nanoTime());
        this.name = "cuda:" + device.ordinal() + " (" + device.properties().name() + ")";
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                Thread.ofPlatform().daemon().name("cuzk-cuda-" + device.ordinal() + "-g2").factory());
        pool.allowCoreThreadTimeOut(true);
        this.g2 = pool;
    }

    /** Checks b every period while it is reachable; gives its idle pooled memory back when due. */
    private static void watch(CudaBackend b, Duration idle) {
        if (idle.isZero()) {
            return;
        }
        WeakReference<CudaBackend> ref = new WeakReference<>(b);
        long period = Math.max(250, idle.toMillis() / 4);
        ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
        task[0] = TRIMMER.scheduleAtFixedRate(() -> {
            CudaBackend live = ref.get();
            if (live == null) {
                if (task[0] != null) {
                    task[0].cancel(false);
                }
                return;
            }
            try {
                live.releaseIfIdle(System.nanoTime());
            } catch (RuntimeException e) {
                System.getLogger("io.cuzk").log(System.Logger.Level.WARNING, "cuzk: giving idle device memory back failed: " + e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Once the device has been idle for the configured time: gives its stream-ordered pool's free
     * memory back to the driver down to nothing, and frees the pinned staging chunks no caller
     * holds. Returns whether it did. Work starting meanwhile is unharmed: the pool gives back only
     * memory nothing uses, and a caller takes a staging set out of the deque before using it.
     */
    boolean releaseIfIdle(long now) {
        if (!idle.due(now)) {
            return false;
        }
        device.trimPool(0);
        Staging st;
        while ((st = staging.pollLast()) != null) {
            st.close();
        }
        return true;
    }

    /** Freed device memory the pool keeps for reuse while the device works (see {@link #open}). */
    public long poolKeepBytes() {
        return poolKeepBytes;
    }

    /**
     * The backend of device ordinal. Throws {@link NativeLibraryException} when the CUDA runtime or
     * this build's CUDA library is missing, and {@link CudaException} when the driver or the device is.
     *
     * <p>Device memory: kernels allocate from the device's stream-ordered pool, which keeps what
     * they free for the next proof up to {@code cuzk.cuda.pool-keep-mib} (system property; default a
     * quarter of the device's memory) and gives the rest back at each synchronisation; once the
     * device has done nothing for {@code cuzk.cuda.pool-idle-ms} (default 10,000; 0 never), a
     * background thread gives all of the pool's free memory and the idle pinned staging chunks back.
     * The proofs' G2 MSMs are placed by {@code cuzk.cuda.g2} ({@link G2Placement}); resident keys
     * get shifted copies of their G1 points within {@code cuzk.cuda.precompute-mib} per key (default
     * 0: none; see {@link #open(int, G2Placement, long)}).
     */
    public static CudaBackend open(int ordinal) {
        return open(ordinal, G2Placement.fromProperty());
    }

    /** As {@link #open(int)}, with the proofs' G2 MSMs placed as g2 says. */
    public static CudaBackend open(int ordinal, G2Placement g2) {
        return open(ordinal, g2, sizeProperty("cuzk.cuda.precompute-mib", 0) << 20);
    }

    /**
     * As {@link #open(int, G2Placement)}; each key made resident ({@link #resident}) may take up to
     * precomputeBytes of device memory beyond its points for tables of shifted copies of its four
     * G1 point sets ({@link BaseCopies}; shared in proportion to their sizes, each table as large as
     * its share allows, none where a share is under one more copy), built on the device when the
     * key is made resident. 0: the plain points.
     */
    public static CudaBackend open(int ordinal, G2Placement g2, long precomputeBytes) {
        Validate.notNull(g2, "g2");
        Validate.isTrue(precomputeBytes >= 0, "precomputeBytes must not be negative");
        long keepMib = sizeProperty("cuzk.cuda.pool-keep-mib", -1);
        long idleMs = sizeProperty("cuzk.cuda.pool-idle-ms", 10_000);
        NativeLibrary.cudaLookup();
        Device d = Device.get(ordinal);
        long keep = keepMib >= 0 ? keepMib << 20 : d.properties().totalGlobalMemory() / 4;
        d.setPoolRetention(keep);
        CudaBackend b = new CudaBackend(d, Backend.cpu(), g2, keep, Duration.ofMillis(idleMs), precomputeBytes);
        watch(b, Duration.ofMillis(idleMs));
        return b;
    }

    /**
     * A system property that is a whole number of 0 or more, or dflt when unset; one clear message
     * naming the property when it is anything else (Long.getLong would fall back to dflt silently).
     */
    static long sizeProperty(String name, long dflt) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > (Long.MAX_VALUE >> 20)) {
            throw new IllegalArgumentException(name + " must be a whole number of 0 or more, not '" + v + "'");
        }
        return n;
    }

    /** Device memory a resident key may take beyond its points for shifted copies of its G1 point sets. */
    public long precomputeBytes() {
        return precomputeBytes;
    }

    /** The tables of shifted copies of a resident key's G1 point sets A, B1, C and H ({@link BaseCopies#NONE} for plain points). */
    public List<BaseCopies> baseCopies(Resident bases) {
        Validate.isTrue(bases.backend() == this, "the key's points were made resident for %s", bases.backend().name());
        DevicePoints r = (DevicePoints) bases.device();
        return List.of(r.a.copies(), r.b1.copies(), r.c.copies(), r.h.copies());
    }

    /** Where this backend runs proofs' G2 MSMs. */
    public G2Placement g2Placement() {
        return g2Placement;
    }

    /** Whether the next proof over these resident points runs its G2 MSM on the device. */
    public boolean g2OnGpu(Resident bases) {
        Validate.isTrue(bases.backend() == this, "the key's points were made resident for %s", bases.backend().name());
        return ((DevicePoints) bases.device()).rule.onGpu();
    }

    public Device device() {
        return device;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int hostThreads() {
        return cpu.hostThreads();
    }

    @Override
    public boolean prefersPinnedHostMemory() {
        return true;
    }

    // ---- single kernels on device-resident data ---------------------------------------------------

    /** An MSM in progress on the device; {@link #finish()} waits for it and returns the sum. */
    public final class PendingMsm {
        private final MemorySegment handle;
        private final Curve curve;
        private final Group group;
        private boolean finished;

        PendingMsm(MemorySegment handle, Curve curve, Group group) {
            this.handle = handle;
            this.curve = curve;
            this.group = group;
        }

        public synchronized Point finish() {
            Validate.validState(!finished, "finish was called already");
            finished = true;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(curve.pointBytes(group), 8);
                CudaChecked.check(cuzk_cuda_h.cuzk_cuda_msm_finish(handle, out), "cuzk_cuda_msm_finish");
                return new Point(curve, group, out.toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    /**
     * Queues a G1 MSM over n device-resident bases (native layout) and scalars on the stream and
     * returns at once.
     */
    public PendingMsm startMsm(Stream stream, Curve curve, DeviceBuffer bases, DeviceBuffer scalars, long n, ScalarForm form) {
        return startMsmAt(stream, curve, Group.G1, bases, scalars, 0, n, form);
    }

    /** As {@link #startMsm(Stream, Curve, DeviceBuffer, DeviceBuffer, long, ScalarForm)}, in the given group. */
    public PendingMsm startMsm(Stream stream, Curve curve, Group group, DeviceBuffer bases, DeviceBuffer scalars, long n,
            ScalarForm form) {
        return startMsmAt(stream, curve, group, bases, scalars, 0, n, form);
    }

    /** As {@link #startMsm}, with the scalars starting scalarOffset bytes into their buffer. */
    public PendingMsm startMsmAt(Stream stream, Curve curve, DeviceBuffer bases, DeviceBuffer scalars, long scalarOffset, long n,
            ScalarForm form) {
        return startMsmAt(stream, curve, Group.G1, bases, scalars, scalarOffset, n, form);
    }

    /** As {@link #startMsmAt(Stream, Curve, DeviceBuffer, DeviceBuffer, long, long, ScalarForm)}, in the given group. */
    public PendingMsm startMsmAt(Stream stream, Curve curve, Group group, DeviceBuffer bases, DeviceBuffer scalars, long scalarOffset,
            long n, ScalarForm form) {
        return startMsmAt(stream, curve, group, bases, BaseCopies.NONE, scalars, scalarOffset, n, form);
    }

    /**
     * As {@link #startMsmAt(Stream, Curve, Group, DeviceBuffer, DeviceBuffer, long, long, ScalarForm)},
     * over a table of shifted copies of n bases ({@link #precompute}): the MSM sums the table's rows
     * of buckets in windows of the width the table was made for.
     */
    public PendingMsm startMsmAt(Stream stream, Curve curve, Group group, DeviceBuffer bases, BaseCopies copies, DeviceBuffer scalars,
            long scalarOffset, long n, ScalarForm form) {
        Validate.notNull(stream, "stream");
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.notNull(copies, "copies");
        Validate.notNull(form, "form");
        Validate.isTrue(n >= 0 && scalarOffset >= 0, "negative size or offset");
        Validate.isTrue(n <= bases.byteSize() / ((long) copies.copies() * curve.pointBytes(group))
                && n <= (scalars.byteSize() - Math.min(scalars.byteSize(), scalarOffset)) / Curve.SCALAR_BYTES,
                "the device buffers are smaller than %d copies of %d points and %d scalars", copies.copies(), n, n);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = BaseCopies.config(a, curve, group, n, copies);
            cuzk_msm_config.scalar_form(cfg, form.id());
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            MemorySegment d = MemorySegment.ofAddress(scalars.pointer().address() + scalarOffset);
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_msm_start(device.ordinal(), stream.handle(), cfg, bases.pointer(), d, out),
                    "cuzk_cuda_msm_start");
            return new PendingMsm(out.get(ValueLayout.ADDRESS, 0), curve, group);
        }
    }

    /**
     * Queues the making of a table of shifted copies of n bases on the stream: table holds
     * copies.copies() blocks of n points, the first one the bases (the caller's), and the kernels
     * fill the others ({@link BaseCopies}); returns at once.
     */
    public void precompute(Stream stream, Curve curve, Group group, DeviceBuffer table, long n, BaseCopies copies) {
        Validate.notNull(stream, "stream");
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.notNull(copies, "copies");
        Validate.isTrue(n >= 0, "negative size");
        Validate.isTrue(table.byteSize() >= copies.tableBytes(curve, group, n), "the device buffer is smaller than %d copies of %d points",
                copies.copies(), n);
        try (Arena a = Arena.ofConfined()) {
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_msm_precompute(device.ordinal(), stream.handle(),
                    BaseCopies.config(a, curve, group, n, copies), table.pointer()), "cuzk_cuda_msm_precompute");
        }
    }

    /**
     * Queues an NTT of 2^logN device-resident Fr elements (Montgomery form) on the stream, with the
     * field's generator as coset shift for the coset kinds; returns at once.
     */
    public void startNtt(Stream stream, Curve curve, DeviceBuffer data, int logN, NttKind kind) {
        Validate.notNull(stream, "stream");
        Validate.notNull(curve, "curve");
        Validate.notNull(kind, "kind");
        Validate.isTrue(logN >= 0 && logN <= curve.twoAdicity(), "no NTT of 2^%d elements in %s's Fr", logN, curve.cliName());
        Validate.isTrue(data.byteSize() >= ((long) Curve.SCALAR_BYTES << logN), "the device buffer is smaller than 2^%d elements", logN);
        queueNtt(stream, curve, data, logN, kind, null);
    }

    private void queueNtt(Stream s, Curve curve, DeviceBuffer d, int logN, NttKind kind, BigInteger shift) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, curve.id());
            cuzk_ntt_config.direction(cfg, kind.direction());
            cuzk_ntt_config.coset(cfg, kind.coset() ? 1 : 0);
            cuzk_ntt_config.log_n(cfg, logN);
            Structs.setAddress(cfg, cuzk_ntt_config.coset_shift$offset(), shift == null ? MemorySegment.NULL
                    : CpuBackend.montgomery(a, curve, shift).segment());
            // the call reads the config and the shift before it returns (cuzk.h), so they may go now
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_ntt(device.ordinal(), s.handle(), cfg, d.pointer()), "cuzk_cuda_ntt");
        }
    }

    // ---- kernels on host vectors ---------------------------------------------------------------

    /** Runs body with a set of pinned chunks of this backend's, returned to the pool after. */
    private <T> T staged(Function<Staging, T> body) {
        idle.begin();
        try {
            Staging st = staging.pollFirst();
            if (st == null) {
                st = Staging.create(device, Staging.DEFAULT_CHUNK);
            }
            try {
                return body.apply(st);
            } finally {
                staging.offerFirst(st); // a later user waits for any copy still queued from its chunks
            }
        } finally {
            idle.end(System.nanoTime());
        }
    }

    /** Both groups on the device, except G2 where the backend's placement is {@link G2Placement#CPU}. */
    @Override
    Point msmChecked(PointVector bases, ScalarVector scalars) {
        if (bases.group() == Group.G2 && g2Placement == G2Placement.CPU) {
            return cpu.msm(bases, scalars);
        }
        return staged(st -> {
            try (Stream s = Stream.create(device);
                    DeviceBuffer db = DeviceBuffer.allocate(s, bases.segment().byteSize());
                    DeviceBuffer ds = DeviceBuffer.allocate(s, scalars.segment().byteSize())) {
                st.upload(bases.segment(), db, 0, s);
                st.upload(scalars.segment(), ds, 0, s);
                return startMsm(s, bases.curve(), bases.group(), db, ds, bases.size(), scalars.form()).finish();
            }
        });
    }

    @Override
    void nttChecked(ScalarVector data, NttKind kind, int logN, BigInteger shift) {
        staged(st -> {
            try (Stream s = Stream.create(device); DeviceBuffer d = DeviceBuffer.allocate(s, data.segment().byteSize())) {
                st.upload(data.segment(), d, 0, s);
                queueNtt(s, data.curve(), d, logN, kind, shift);
                st.download(d, 0, data.segment(), s);
            }
            return null;
        });
    }

    /** The device's H kernel leaves h in Montgomery form; canonical h is converted on the host. */
    @Override
    void groth16HChecked(ScalarVector a, ScalarVector b, ScalarVector c, ScalarForm hForm) {
        long bytes = a.segment().byteSize();
        staged(st -> {
            try (Stream s = Stream.create(device);
                    DeviceBuffer da = DeviceBuffer.allocate(s, bytes);
                    DeviceBuffer db = DeviceBuffer.allocate(s, bytes);
                    DeviceBuffer dc = DeviceBuffer.allocate(s, bytes)) {
                st.upload(a.segment(), da, 0, s);
                st.upload(b.segment(), db, 0, s);
                st.upload(c.segment(), dc, 0, s);
                queueH(s, a.curve(), Long.numberOfTrailingZeros(a.size()), da, db, dc);
                st.download(da, 0, a.segment(), s);
            }
            return null;
        });
        if (hForm == ScalarForm.CANONICAL) {
            ScalarOps.fromMontgomery(a, ScalarVector.wrap(a.curve(), ScalarForm.CANONICAL, a.segment()));
        }
    }

    private void queueH(Stream s, Curve curve, int logN, DeviceBuffer a, DeviceBuffer b, DeviceBuffer c) {
        CudaChecked.check(cuzk_cuda_h.cuzk_cuda_groth16_h(device.ordinal(), s.handle(), curve.id(), logN, a.pointer(), b.pointer(),
                c.pointer()), "cuzk_cuda_groth16_h");
    }

    @Override
    void linkChecked() {
        cpu.link();
        cuzk_cuda_h.cuzk_cuda_groth16_h$handle();
        cuzk_cuda_h.cuzk_cuda_msm_start$handle();
        cuzk_cuda_h.cuzk_cuda_msm_finish$handle();
    }

    @Override
    void prepareGroth16Checked(Curve curve, int logN) {
        // the device's tables are made by its kernels' first launch; the host has nothing to prepare
    }

    // ---- a proof's kernels ---------------------------------------------------------------------

    /**
     * The key's point sets on the device: the G1 ones from the start, B2 once the key's G2 MSMs go
     * to the device (at once under {@link G2Placement#GPU}, when the rule moves them under AUTO).
     */
    private final class DevicePoints implements AutoCloseable {
        final Table a, b1, c, h;
        final G2Placement.Rule rule;
        private final PointVector hostB2;
        private DeviceBuffer b2;
        private boolean closed;

        DevicePoints(List<Table> g1, PointVector hostB2) {
            this.a = g1.get(0);
            this.b1 = g1.get(1);
            this.c = g1.get(2);
            this.h = g1.get(3);
            this.hostB2 = hostB2;
            this.rule = new G2Placement.Rule(g2Placement);
        }

        /** B2 on the device, uploaded by the first caller (once per key; lanes of a device may race here). */
        synchronized DeviceBuffer b2() {
            Validate.validState(!closed, "the key's device points were released");
            if (b2 == null) {
                b2 = upload(hostB2);
            }
            return b2;
        }

        @Override
        public synchronized void close() {
            closed = true;
            a.buffer().close();
            b1.buffer().close();
            c.buffer().close();
            h.buffer().close();
            if (b2 != null) {
                b2.close();
            }
        }
    }

    /**
     * A point set on the device: its n points, or a table of shifted copies of them (the points
     * first). An MSM over the set's n points runs over the table; one over fewer of them (a prefix)
     * over the plain points, which the table begins with.
     */
    private record Table(DeviceBuffer buffer, BaseCopies copies, long n) {
        BaseCopies copiesFor(long count) {
            return count == n ? copies : BaseCopies.NONE;
        }
    }

    /** One point set on the device, copied synchronously through a staging set. */
    private DeviceBuffer upload(PointVector v) {
        return upload(v, BaseCopies.NONE).buffer();
    }

    /**
     * One point set on the device as a table of the given copies: the points copied synchronously
     * through a staging set, then the copies made by the device.
     */
    private Table upload(PointVector v, BaseCopies copies) {
        return staged(st -> {
            DeviceBuffer d = DeviceBuffer.allocateSync(device, Math.max(1, copies.tableBytes(v.curve(), v.group(), v.size())));
            try (Stream s = Stream.create(device)) {
                if (v.segment().byteSize() > 0) {
                    st.upload(v.segment(), d, 0, s); // a key read or mapped from its file: pageable
                }
                if (copies.shifted()) {
                    precompute(s, v.curve(), v.group(), d, v.size(), copies);
                }
                s.synchronize();
                return new Table(d, copies, v.size());
            } catch (RuntimeException e) {
                d.close();
                throw e;
            }
        });
    }

    /**
     * The copies for each of a key's G1 point sets within precomputeBytes: each set's share of the
     * bytes in proportion to its size, each table as large as its points plus its share allow.
     */
    static List<BaseCopies> planCopies(List<PointVector> sets, long precomputeBytes) {
        List<BaseCopies> plans = new ArrayList<>();
        long total = 0;
        for (PointVector v : sets) {
            total += v.segment().byteSize();
        }
        for (PointVector v : sets) {
            long bytes = v.segment().byteSize();
            if (precomputeBytes == 0 || bytes == 0) {
                plans.add(BaseCopies.NONE);
                continue;
            }
            long share = BigInteger.valueOf(precomputeBytes).multiply(BigInteger.valueOf(bytes)).divide(BigInteger.valueOf(total)).longValue();
            BaseCopies plan = BaseCopies.plan(v.curve(), v.group(), v.size(), 0, share > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : bytes + share);
            plans.add(plan.shifted() ? plan : BaseCopies.NONE);
        }
        return plans;
    }

    /**
     * Uploads A, B1, C and H (as tables of shifted copies where {@link #precomputeBytes()} allows),
     * and B2 where G2 MSMs go to the device from the start (synchronously: the caller holds no lock
     * a proof waits on).
     */
    @Override
    Resident residentChecked(Groth16Bases g) {
        List<Table> done = new ArrayList<>();
        try {
            List<PointVector> sets = List.of(g.a(), g.b1(), g.c(), g.h());
            List<BaseCopies> plans = planCopies(sets, precomputeBytes);
            for (int i = 0; i < sets.size(); i++) {
                done.add(upload(sets.get(i), plans.get(i)));
            }
            DevicePoints points = new DevicePoints(done, g.b2());
            done.clear();
            try {
                if (points.rule.onGpu()) {
                    points.b2();
                }
            } catch (RuntimeException e) {
                points.close();
                throw e;
            }
            return new Resident(this, g, points);
        } catch (RuntimeException e) {
            done.forEach(t -> t.buffer().close());
            throw e;
        }
    }

    @Override
    Groth16Msms groth16Checked(Resident bases, Groth16Inputs in) {
        try (CudaLane lane = new CudaLane()) {
            return lane.start(bases, in, Events.NONE).finish();
        }
    }

    @Override
    public Lane openLane() {
        return new CudaLane();
    }

    /** A lane of the GPU: a stream of its own. */
    final class CudaLane implements Lane {
        private final Stream stream = Stream.create(device);

        /**
         * Uploads a, b, c and the witness, queues H and the four G1 MSMs on the stream, then the G2
         * MSM on the stream or on a CPU thread (the key's {@link G2Placement.Rule}), and returns.
         */
        @Override
        public Pending start(Resident bases, Groth16Inputs in, Events events) {
            checkProof(bases, in);
            Validate.notNull(events, "events");
            Groth16Bases g = bases.bases();
            DevicePoints r = (DevicePoints) bases.device();
            Curve curve = g.curve();
            int n = g.domainSize();
            long bytes = (long) n * Curve.SCALAR_BYTES;
            List<DeviceBuffer> buffers = new ArrayList<>();
            List<PendingMsm> started = new ArrayList<>();
            Event copied = null;
            CompletableFuture<Point> b2 = null;
            boolean g2OnGpu = r.rule.onGpu();
            long startNanos = System.nanoTime();
            events.started(startNanos);
            idle.begin();
            try {
                DeviceBuffer da = DeviceBuffer.allocate(stream, bytes);
                buffers.add(da);
                DeviceBuffer db = DeviceBuffer.allocate(stream, bytes);
                buffers.add(db);
                DeviceBuffer dc = DeviceBuffer.allocate(stream, bytes);
                buffers.add(dc);
                DeviceBuffer dw = DeviceBuffer.allocate(stream, in.witness().segment().byteSize());
                buffers.add(dw);
                da.copyFrom(in.a().segment(), 0, stream);
                db.copyFrom(in.b().segment(), 0, stream);
                dc.copyFrom(in.c().segment(), 0, stream);
                dw.copyFrom(in.witness().segment(), 0, stream);
                copied = Event.create(device, false);
                copied.record(stream);
                queueH(stream, curve, Integer.numberOfTrailingZeros(n), da, db, dc);
                DeviceBuffer db2 = g2OnGpu ? r.b2() : null;
                if (!g2OnGpu) {
                    b2 = CompletableFuture.supplyAsync(() -> cpu.msm(g.b2(), in.witness()), g2);
                }
                long nVars = g.nVars();
                started.add(msm(r.a, dw, 0, nVars, ScalarForm.CANONICAL, curve));
                started.add(msm(r.b1, dw, 0, nVars, ScalarForm.CANONICAL, curve));
                started.add(msm(r.c, dw, (g.nPublic() + 1L) * Curve.SCALAR_BYTES, g.c().size(), ScalarForm.CANONICAL, curve));
                started.add(msm(r.h, da, 0, n, ScalarForm.MONTGOMERY, curve));
                if (g2OnGpu) {
                    started.add(startMsm(stream, curve, Group.G2, db2, dw, g.b2().size(), ScalarForm.CANONICAL));
                }
                return new CudaPending(copied, events, started, b2, r.rule, startNanos, idle);
            } catch (RuntimeException | Error e) {
                // leave nothing behind: finished handles free their native state, the G2 MSM stops
                // reading the witness before the caller may free it
                for (PendingMsm m : started) {
                    try {
                        m.finish();
                    } catch (RuntimeException ignored) {
                        // the first failure is the one reported
                    }
                }
                if (b2 != null) {
                    b2.handle((v, x) -> null).join();
                }
                if (copied != null) {
                    copied.close();
                }
                long end = System.nanoTime();
                events.ended(end);
                idle.end(end);
                throw e;
            } finally {
                // stream-ordered frees: they take effect after whatever was queued above
                buffers.forEach(DeviceBuffer::close);
            }
        }

        /** A G1 MSM over count of the set's points on this lane's stream, over its table where it has one. */
        private PendingMsm msm(Table t, DeviceBuffer scalars, long offset, long count, ScalarForm form, Curve curve) {
            return startMsmAt(stream, curve, Group.G1, t.buffer(), t.copiesFor(count), scalars, offset, count, form);
        }

        @Override
        public void close() {
            stream.close();
        }
    }

    /** The kernels of one proof in flight on a lane. */
    private static final class CudaPending implements Pending {
        private final Event copied;
        private final Events events;
        /** A, B1, C, H on the device, then B2 where it runs there. */
        private final List<PendingMsm> msms;
        /** B2 on a host thread, or null where it runs on the device. */
        private final CompletableFuture<Point> b2;
        private final G2Placement.Rule rule;
        private final long startNanos;
        private final IdleWatch idle;

        CudaPending(Event copied, Events events, List<PendingMsm> msms, CompletableFuture<Point> b2, G2Placement.Rule rule,
                long startNanos, IdleWatch idle) {
            this.copied = copied;
            this.events = events;
            this.msms = msms;
            this.b2 = b2;
            this.rule = rule;
            this.startNanos = startNanos;
            this.idle = idle;
        }

        /**
         * Waits: once the device has copied a, b, c, abcTaken runs; then the MSMs' results. Every
         * handle is finished (and so freed) and a host G2 MSM joined even when one of them fails.
         * A host G2 MSM's wait after the device's last result is reported to the key's rule.
         */
        @Override
        public Groth16Msms finish() {
            try {
                return collect();
            } finally {
                idle.end(System.nanoTime());
            }
        }

        private Groth16Msms collect() {
            RuntimeException failure = null;
            try {
                copied.synchronize();
                events.abcTaken();
            } catch (RuntimeException e) {
                failure = e; // a, b, c stay with the caller; the handles below still get freed
            } finally {
                copied.close();
            }
            Point[] sums = new Point[msms.size()];
            for (int i = 0; i < sums.length; i++) {
                try {
                    sums[i] = msms.get(i).finish();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
            Point g2;
            if (b2 == null) {
                events.ended(System.nanoTime());
                if (failure != null) {
                    throw failure;
                }
                g2 = sums[4];
            } else {
                long deviceDone = System.nanoTime();
                try {
                    g2 = b2.join();
                } catch (CompletionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException re ? re : e;
                    throw failure != null ? failure : cause;
                } finally {
                    events.ended(System.nanoTime());
                }
                if (failure != null) {
                    throw failure;
                }
                rule.observe(deviceDone - startNanos, System.nanoTime() - deviceDone);
            }
            return new Groth16Msms(sums[0], sums[1], g2, sums[2], sums[3]);
        }
    }

    /** Why no CUDA backend can be opened here, or null if device 0 can be. */
    static String unavailableReason() {
        if (!CudaRuntime.libraryAvailable()) {
            try {
                CudaLibrary.lookup();
            } catch (NativeLibraryException e) {
                return e.getMessage();
            }
        }
        try {
            NativeLibrary.cudaLookup();
        } catch (NativeLibraryException e) {
            return e.getMessage();
        }
        try {
            int n = CudaRuntime.deviceCount();
            return n > 0 ? null : "no CUDA device";
        } catch (CudaException e) {
            return e.getMessage();
        }
    }
}
