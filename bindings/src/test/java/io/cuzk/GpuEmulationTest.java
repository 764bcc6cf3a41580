package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA kernels' algorithms without a GPU: the host runs each kernel's per-thread code over the
 * whole grid, phase by phase (digits, sort, bucket bounds, bucket sums, segmented reduction, window
 * combination; bit reversal, shared-memory stage groups, coset scaling), and the results must equal
 * the CPU backend's (itself checked against @noble/curves and published vectors).
 */
class GpuEmulationTest {
    static Point emulatedMsm(PointVector bases, ScalarVector scalars, int windowBits) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_msm_config.allocate(a);
            cuzk_msm_config.curve(cfg, bases.curve().id());
            cuzk_msm_config.group(cfg, bases.group().id());
            cuzk_msm_config.scalar_form(cfg, scalars.form().id());
            cuzk_msm_config.window_bits(cfg, windowBits);
            cuzk_msm_config.count(cfg, bases.size());
            MemorySegment out = a.allocate(bases.curve().pointBytes(bases.group()), 8);
            Checked.check(cuzk_h.cuzk_emulate_msm(cfg, bases.segment(), scalars.segment(), out), "cuzk_emulate_msm");
            return Point.ofNative(bases.curve(), bases.group(), out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    static void emulatedNtt(ScalarVector data, NttKind kind, BigInteger shift) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, data.curve().id());
            cuzk_ntt_config.direction(cfg, kind.direction());
            cuzk_ntt_config.coset(cfg, kind.coset() ? 1 : 0);
            cuzk_ntt_config.log_n(cfg, Long.numberOfTrailingZeros(data.size()));
            if (kind.coset() && shift != null) {
                ScalarVector s = ScalarVector.allocate(a, data.curve(), 1, ScalarForm.MONTGOMERY);
                s.set(0, shift);
                cuzk_ntt_config.coset_shift(cfg, s.segment());
            } else {
                cuzk_ntt_config.coset_shift(cfg, MemorySegment.NULL);
            }
            Checked.check(cuzk_h.cuzk_emulate_ntt(cfg, data.segment()), "cuzk_emulate_ntt");
        }
    }

    /** Random points with edge cases mixed in: infinity, repeats, a point and its negation. */
    static PointVector points(Arena a, Curve c, Group g, int n, Random rnd) {
        PointVector gs = PointVector.allocate(a, c, g, n);
        ScalarVector m = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
        for (int i = 0; i < n; i++) {
            gs.set(i, Points.generator(c, g));
            m.set(i, new BigInteger(64, rnd).add(BigInteger.ONE));
        }
        PointVector p = PointVector.allocate(a, c, g, n);
        Points.multiply(gs, m, p);
        for (int i = 0; i < n; i++) {
            switch (i % 13) {
                case 3 -> p.set(i, Point.infinity(c, g));
                case 5 -> p.set(i, p.get(i - 1));
                case 7 -> p.set(i, Points.negate(p.get(i - 1)));
                default -> { }
            }
        }
        return p;
    }

    static ScalarVector scalars(Arena a, Curve c, int n, ScalarForm form, Random rnd) {
        ScalarVector s = ScalarVector.allocate(a, c, n, form);
        for (int i = 0; i < n; i++) {
            BigInteger v = switch (i % 11) {
                case 0 -> BigInteger.ZERO;
                case 1 -> c.r().subtract(BigInteger.ONE);
                case 2 -> form == ScalarForm.CANONICAL ? c.r() : BigInteger.ONE;
                case 3 -> form == ScalarForm.CANONICAL ? BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE) : BigInteger.TWO;
                default -> new BigInteger(form == ScalarForm.CANONICAL ? 256 : 255, rnd);
            };
            s.set(i, v);
        }
        return s;
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void msmKernelsGiveTheCpuBackendsResults(Curve c) {
        Random rnd = new Random(c.ordinal() + 7);
        for (Group g : Group.values()) {
            for (int n : new int[] {0, 1, 2, 3, 100, 1000, 1 << 12}) {
                try (Arena a = Arena.ofConfined()) {
                    PointVector p = points(a, c, g, Math.max(n, 1), rnd).slice(0, n);
                    for (ScalarForm form : ScalarForm.values()) {
                        ScalarVector s = scalars(a, c, n, form, rnd);
                        Point expected = Backend.cpu().msm(p, s);
                        assertEquals(expected, emulatedMsm(p, s, 0), c + " " + g + " n=" + n + " " + form);
                        if (n == 1000) {
                            for (int w : new int[] {2, 5, 13}) {
                                assertEquals(expected, emulatedMsm(p, s, w), c + " " + g + " n=" + n + " window " + w);
                            }
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void nttKernelsGiveTheCpuBackendsResults(Curve c) {
        Random rnd = new Random(c.ordinal() + 11);
        for (int k : new int[] {0, 1, 2, 9, 10, 11, 16}) { // 11 and 16 need two launches of stage groups
            int n = 1 << k;
            for (NttKind kind : NttKind.values()) {
                for (BigInteger shift : kind.coset() ? new BigInteger[] {null, BigInteger.valueOf(7)} : new BigInteger[] {null}) {
                    try (Arena a = Arena.ofConfined()) {
                        ScalarVector cpu = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                        for (int i = 0; i < n; i += Math.max(1, n / 4096)) {
                            cpu.set(i, new BigInteger(254, rnd));
                        }
                        ScalarVector gpu = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                        MemorySegment.copy(cpu.segment(), 0, gpu.segment(), 0, cpu.segment().byteSize());
                        Backend.cpu().ntt(cpu, kind, shift);
                        emulatedNtt(gpu, kind, shift);
                        assertArrayEquals(cpu.segment().toArray(ValueLayout.JAVA_BYTE), gpu.segment().toArray(ValueLayout.JAVA_BYTE),
                                c + " 2^" + k + " " + kind + " shift " + shift);
                    }
                }
            }
        }
    }
}
