package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import org.apache.commons.lang3.Validate;

/**
 * The native CPU backend: bucket-method MSM over signed windows and radix-2 NTTs, spread over a
 * shared native thread pool. Each call blocks its Java thread until the result is ready.
 */
public final class CpuBackend implements Backend {
    static final CpuBackend ALL_THREADS = new CpuBackend(0, 0);

    private final int threads;
    private final int windowBits;

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

    public int threads() {
        return threads;
    }

    @Override
    public int hostThreads() {
        return threads;
    }

    @Override
    public String name() {
        return "cpu(" + (threads == 0 ? "all" : Integer.toString(threads)) + " threads)";
    }

    @Override
    public Point msm(PointVector bases, ScalarVector scalars) {
        Validate.notNull(bases, "bases");
        Validate.notNull(scalars, "scalars");
        Validate.isTrue(bases.curve() == scalars.curve(), "bases are %s but scalars are %s", bases.curve().cliName(),
                scalars.curve().cliName());
        Validate.isTrue(bases.size() == scalars.size(), "%d bases but %d scalars", bases.size(), scalars.size());
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
    public void ntt(ScalarVector data, NttKind kind) {
        ntt(data, kind, null);
    }

    @Override
    public void ntt(ScalarVector data, NttKind kind, BigInteger cosetShift) {
        Validate.notNull(data, "data");
        Validate.notNull(kind, "kind");
        Validate.isTrue(data.form() == ScalarForm.MONTGOMERY, "NTT data must be Fr elements in Montgomery form");
        long n = data.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "the NTT size must be a power of two, not %d", n);
        int logN = Long.numberOfTrailingZeros(n);
        Curve curve = data.curve();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, curve.id());
            cuzk_ntt_config.direction(cfg, kind.direction());
            cuzk_ntt_config.coset(cfg, kind.coset() ? 1 : 0);
            cuzk_ntt_config.log_n(cfg, logN);
            cuzk_ntt_config.threads(cfg, threads);
            if (kind.coset() && cosetShift != null) {
                BigInteger g = cosetShift.mod(curve.r());
                Validate.isTrue(g.signum() != 0, "the coset shift must not be zero modulo r");
                ScalarVector shift = ScalarVector.allocate(a, curve, 1, ScalarForm.MONTGOMERY);
                shift.set(0, g);
                cuzk_ntt_config.coset_shift(cfg, shift.segment());
            } else {
                cuzk_ntt_config.coset_shift(cfg, MemorySegment.NULL);
            }
            Checked.check(cuzk_h.cuzk_ntt(cfg, data.segment()), "cuzk_ntt");
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
