package io.cuzk.groth16;

import io.cuzk.Backend;
import io.cuzk.CudaBackend;
import io.cuzk.Curve;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Event;
import io.cuzk.cuda.Stream;
import io.cuzk.internal.CudaChecked;
import io.cuzk.internal.ffi.cuzk_cuda_h;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * A proof's kernels on a GPU, in two phases. {@link #start} uploads a, b, c and the witness, queues
 * H (NTTs and the element-wise step) and the four G1 MSMs on the stream, starts the G2 MSM on CPU
 * threads, and returns at once; {@link Pending#finish()} waits for all of it. The key's G1 points
 * are uploaded once per device and stay resident until the key is closed.
 */
public final class CudaGroth16 {
    private CudaGroth16() {}

    private record Resident(DeviceBuffer a, DeviceBuffer b1, DeviceBuffer c, DeviceBuffer h) {
        void close() {
            a.close();
            b1.close();
            c.close();
            h.close();
        }
    }

    /** A key on a device; ProvingKey has identity equality, so the record does too. */
    private record Slot(ProvingKey key, int device) {}

    private static final ConcurrentHashMap<Slot, Resident> RESIDENT = new ConcurrentHashMap<>();

    private static Resident resident(CudaBackend gpu, ProvingKey key) {
        return RESIDENT.computeIfAbsent(new Slot(key, gpu.device().ordinal()), k -> {
            try (Stream s = Stream.create(gpu.device())) {
                Resident r = new Resident(upload(key.a(), s), upload(key.b1(), s), upload(key.c(), s), upload(key.h(), s));
                s.synchronize();
                key.onClose(() -> {
                    Resident gone = RESIDENT.remove(k);
                    if (gone != null) {
                        gone.close();
                    }
                });
                return r;
            }
        });
    }

    private static DeviceBuffer upload(PointVector v, Stream s) {
        DeviceBuffer d = DeviceBuffer.allocateSync(s.device(), Math.max(1, v.segment().byteSize()));
        if (v.segment().byteSize() > 0) {
            d.copyFrom(v.segment(), 0, s);
        }
        return d;
    }

    /** The kernels of one proof in flight. */
    public static final class Pending {
        private final Event copied;
        private final Runnable abcTaken;
        private final CudaBackend.PendingMsm a, b1, c, h;
        private final CompletableFuture<Point> b2;

        Pending(Event copied, Runnable abcTaken, CudaBackend.PendingMsm a, CudaBackend.PendingMsm b1, CudaBackend.PendingMsm c,
                CudaBackend.PendingMsm h, CompletableFuture<Point> b2) {
            this.copied = copied;
            this.abcTaken = abcTaken;
            this.a = a;
            this.b1 = b1;
            this.c = c;
            this.h = h;
            this.b2 = b2;
        }

        /**
         * Waits: once the device has copied a, b, c, abcTaken runs; then the MSMs' results. Every
         * handle is finished (and so freed) and the G2 MSM joined even when one of them fails.
         */
        public Groth16Prover.Msms finish() {
            RuntimeException failure = null;
            try {
                copied.synchronize();
                abcTaken.run();
            } catch (RuntimeException e) {
                failure = e;  // a, b, c stay with the caller's arena; the handles below still get freed
            } finally {
                copied.close();
            }
            Point[] g1 = new Point[4];
            CudaBackend.PendingMsm[] all = {a, b1, c, h};
            for (int i = 0; i < all.length; i++) {
                try {
                    g1[i] = all[i].finish();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
            Point g2;
            try {
                g2 = b2.join();
            } catch (RuntimeException e) {
                throw failure != null ? failure : e;
            }
            if (failure != null) {
                throw failure;
            }
            return new Groth16Prover.Msms(g1[0], g1[1], g2, g1[2], g1[3]);
        }
    }

    /**
     * Queues a proof's kernels. a, b, c (Montgomery form) and the witness (canonical) are host
     * vectors, preferably in pinned memory; they must stay untouched until abcTaken has run (a, b,
     * c) and until finish returns (the witness, which the G2 MSM reads on the CPU).
     */
    public static Pending start(CudaBackend gpu, Stream stream, ProvingKey key, ScalarVector witness, ScalarVector a, ScalarVector b,
            ScalarVector c, Runnable abcTaken, Backend cpu, Executor cpuWork) {
        Resident r = resident(gpu, key);
        Curve curve = key.curve();
        int n = key.domainSize();
        long bytes = (long) n * Curve.SCALAR_BYTES;
        List<DeviceBuffer> buffers = new ArrayList<>();
        List<CudaBackend.PendingMsm> started = new ArrayList<>();
        Event copied = null;
        CompletableFuture<Point> g2 = null;
        try {
            DeviceBuffer da = DeviceBuffer.allocate(stream, bytes);
            buffers.add(da);
            DeviceBuffer db = DeviceBuffer.allocate(stream, bytes);
            buffers.add(db);
            DeviceBuffer dc = DeviceBuffer.allocate(stream, bytes);
            buffers.add(dc);
            DeviceBuffer dw = DeviceBuffer.allocate(stream, witness.segment().byteSize());
            buffers.add(dw);
            da.copyFrom(a.segment(), 0, stream);
            db.copyFrom(b.segment(), 0, stream);
            dc.copyFrom(c.segment(), 0, stream);
            dw.copyFrom(witness.segment(), 0, stream);
            copied = Event.create(gpu.device(), false);
            copied.record(stream);
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_groth16_h(gpu.device().ordinal(), stream.handle(), curve.id(),
                    Integer.numberOfTrailingZeros(n), da.pointer(), db.pointer(), dc.pointer()), "cuzk_cuda_groth16_h");
            g2 = CompletableFuture.supplyAsync(() -> cpu.msm(key.b2(), witness), cpuWork);
            long nVars = key.nVars();
            started.add(gpu.startMsm(stream, curve, r.a(), dw, nVars, ScalarForm.CANONICAL));
            started.add(gpu.startMsm(stream, curve, r.b1(), dw, nVars, ScalarForm.CANONICAL));
            started.add(startC(gpu, stream, key, r, dw));
            started.add(gpu.startMsm(stream, curve, r.h(), da, n, ScalarForm.MONTGOMERY));
            return new Pending(copied, abcTaken, started.get(0), started.get(1), started.get(2), started.get(3), g2);
        } catch (RuntimeException e) {
            // leave nothing behind: finished handles free their native state, the G2 MSM stops
            // reading the witness before the caller may free it
            for (CudaBackend.PendingMsm m : started) {
                try {
                    m.finish();
                } catch (RuntimeException ignored) {
                    // the first failure is the one reported
                }
            }
            if (g2 != null) {
                g2.handle((v, x) -> null).join();
            }
            if (copied != null) {
                copied.close();
            }
            throw e;
        } finally {
            // stream-ordered frees: they take effect after whatever was queued above
            buffers.forEach(DeviceBuffer::close);
        }
    }

    /** The C MSM reads the witness from nPublic + 1 on: a view of the device buffer at that offset. */
    private static CudaBackend.PendingMsm startC(CudaBackend gpu, Stream stream, ProvingKey key, Resident r, DeviceBuffer dw) {
        long offset = (key.nPublic() + 1L) * Curve.SCALAR_BYTES;
        return gpu.startMsmAt(stream, key.curve(), r.c(), dw, offset, key.c().size(), ScalarForm.CANONICAL);
    }
}
