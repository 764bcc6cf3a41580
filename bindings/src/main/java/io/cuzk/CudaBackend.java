package io.cuzk;

import io.cuzk.cuda.CudaRuntime;
import io.cuzk.cuda.Device;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Stream;
import io.cuzk.internal.CudaChecked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_cuda_h;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import org.apache.commons.lang3.Validate;

/**
 * The CUDA backend on one device: G1 MSMs and NTTs run as CUDA kernels (libcuzk_cuda); G2 MSMs run
 * on the CPU backend, as SupraSeal does, where they overlap the GPU's work in a proof (Fp2 doubles
 * the registers a bucket addition needs and there is one G2 MSM per proof against four G1 ones).
 * The calls here take host vectors and block until the result is back; {@link #startMsm} is the
 * two-phase entry the engine uses with device-resident inputs.
 */
public final class CudaBackend implements Backend {
    private final Device device;
    private final Backend cpu;
    private final String name;

    private CudaBackend(Device device, Backend cpu) {
        this.device = device;
        this.cpu = cpu;
        this.name = "cuda:" + device.ordinal() + " (" + device.properties().name() + ")";
    }

    /**
     * The backend of device ordinal. Throws {@link NativeLibraryException} when the CUDA runtime or
     * this build's CUDA library is missing, and {@link CudaException} when the driver or the device is.
     */
    public static CudaBackend open(int ordinal) {
        NativeLibrary.cudaLookup();
        Device d = Device.get(ordinal);
        d.retainPoolMemory();
        return new CudaBackend(d, Backend.cpu());
    }

    public Device device() {
        return device;
    }

    @Override
    public String name() {
        return name;
    }

    /** A G1 MSM in progress on the device; {@link #finish()} waits for it and returns the sum. */
    public final class PendingMsm {
        private final MemorySegment handle;
        private final Curve curve;
        private boolean finished;

        PendingMsm(MemorySegment handle, Curve curve) {
            this.handle = handle;
            this.curve = curve;
        }

        public synchronized Point finish() {
            Validate.validState(!finished, "finish was called already");
            finished = true;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(curve.pointBytes(Group.G1), 8);
                CudaChecked.check(cuzk_cuda_h.cuzk_cuda_msm_finish(handle, out), "cuzk_cuda_msm_finish");
                return new Point(curve, Group.G1, out.toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    /**
     * Queues a G1 MSM over n device-resident bases (native layout) and scalars on the stream and
     * returns at once.
     */
    public PendingMsm startMsm(Stream stream, Curve curve, DeviceBuffer bases, DeviceBuffer scalars, long n, ScalarForm form) {
        return startMsmAt(stream, curve, bases, scalars, 0, n, form);
    }

    /** As {@link #startMsm}, with the scalars starting scalarOffset bytes into their buffer. */
    public PendingMsm startMsmAt(Stream stream, Curve curve, DeviceBuffer bases, DeviceBuffer scalars, long scalarOffset, long n,
            ScalarForm form) {
        Validate.isTrue(bases.byteSize() >= n * curve.pointBytes(Group.G1) && scalars.byteSize() >= scalarOffset + n * Curve.SCALAR_BYTES,
                "the device buffers are smaller than %d points and scalars", n);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_msm_config.allocate(a);
            cuzk_msm_config.curve(cfg, curve.id());
            cuzk_msm_config.group(cfg, Group.G1.id());
            cuzk_msm_config.scalar_form(cfg, form.id());
            cuzk_msm_config.count(cfg, n);
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            MemorySegment d = MemorySegment.ofAddress(scalars.pointer().address() + scalarOffset);
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_msm_start(device.ordinal(), stream.handle(), cfg, bases.pointer(), d, out),
                    "cuzk_cuda_msm_start");
            return new PendingMsm(out.get(ValueLayout.ADDRESS, 0), curve);
        }
    }

    @Override
    public Point msm(PointVector bases, ScalarVector scalars) {
        Validate.isTrue(bases.curve() == scalars.curve() && bases.size() == scalars.size(), "bases and scalars do not match");
        if (bases.group() == Group.G2) {
            return cpu.msm(bases, scalars);
        }
        if (bases.size() == 0) {
            return Point.infinity(bases.curve(), Group.G1);
        }
        try (Stream s = Stream.create(device);
                DeviceBuffer db = DeviceBuffer.allocate(s, bases.segment().byteSize());
                DeviceBuffer ds = DeviceBuffer.allocate(s, scalars.segment().byteSize())) {
            db.copyFrom(bases.segment(), 0, s);
            ds.copyFrom(scalars.segment(), 0, s);
            return startMsm(s, bases.curve(), db, ds, bases.size(), scalars.form()).finish();
        }
    }

    @Override
    public void ntt(ScalarVector data, NttKind kind) {
        ntt(data, kind, null);
    }

    @Override
    public void ntt(ScalarVector data, NttKind kind, BigInteger cosetShift) {
        Validate.isTrue(data.form() == ScalarForm.MONTGOMERY, "NTT data must be Fr elements in Montgomery form");
        long n = data.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "the NTT size must be a power of two, not %d", n);
        try (Arena a = Arena.ofConfined(); Stream s = Stream.create(device); DeviceBuffer d = DeviceBuffer.allocate(s, data.segment().byteSize())) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, data.curve().id());
            cuzk_ntt_config.direction(cfg, kind.direction());
            cuzk_ntt_config.coset(cfg, kind.coset() ? 1 : 0);
            cuzk_ntt_config.log_n(cfg, Long.numberOfTrailingZeros(n));
            if (kind.coset() && cosetShift != null) {
                ScalarVector shift = ScalarVector.allocate(a, data.curve(), 1, ScalarForm.MONTGOMERY);
                shift.set(0, cosetShift);
                cuzk_ntt_config.coset_shift(cfg, shift.segment());
            } else {
                cuzk_ntt_config.coset_shift(cfg, MemorySegment.NULL);
            }
            d.copyFrom(data.segment(), 0, s);
            CudaChecked.check(cuzk_cuda_h.cuzk_cuda_ntt(device.ordinal(), s.handle(), cfg, d.pointer()), "cuzk_cuda_ntt");
            d.copyTo(data.segment(), 0, s);
            s.synchronize();
        }
    }

    /** Why no CUDA backend can be opened here, or null if device 0 can be. */
    static String unavailableReason() {
        if (!CudaRuntime.libraryAvailable()) {
            try {
                io.cuzk.internal.CudaLibrary.lookup();
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

    @Override
    public String toString() {
        return name;
    }
}
