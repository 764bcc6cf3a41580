package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_h_config;
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

    /**
     * Scalars shaped like Groth16 witnesses: mostly 0s and 1s (booleans, the constant wire), some
     * small integers, the rest full field elements, at random positions; every 1 lands in the same
     * bucket of window 0, so that bucket holds about a third of the points and is summed over
     * several levels of runs.
     */
    static ScalarVector witnessLike(Arena a, Curve c, int n, Random rnd) {
        ScalarVector s = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(20);
            s.set(i, kind < 9 ? BigInteger.ZERO
                    : kind < 16 ? BigInteger.ONE
                    : kind < 18 ? BigInteger.valueOf(rnd.nextInt(1 << 16))
                    : new BigInteger(c.r().bitLength() + 8, rnd).mod(c.r()));
        }
        return s;
    }

    /** The bundled sample's witness, repeated to n values: a real circuit's digits. */
    static ScalarVector sampleWitness(Arena a, int n) throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Path.of("..", "samples", "poseidon-bn254", "witness.wtns");
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(file)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        // wtns: "wtns", version, section count, then sections (type u32, size u64); 1 = header, 2 = values
        b.position(12);
        int fieldBytes = 0;
        long count = 0;
        int valuesAt = -1;
        while (b.remaining() >= 12) {
            int type = b.getInt();
            long size = b.getLong();
            int at = b.position();
            if (type == 1) {
                fieldBytes = b.getInt();
                b.position(at + 4 + fieldBytes);
                count = b.getInt() & 0xffffffffL;
            } else if (type == 2) {
                valuesAt = at;
            }
            b.position(at + (int) size);
        }
        assertEquals(32, fieldBytes, "the sample is a BN254 witness");
        ScalarVector s = ScalarVector.allocate(a, Curve.BN254, n, ScalarForm.CANONICAL);
        byte[] value = new byte[32];
        for (int i = 0; i < n; i++) {
            b.position(valuesAt + (int) (i % count) * 32);
            b.get(value);
            byte[] be = new byte[33];
            for (int j = 0; j < 32; j++) be[32 - j] = value[j];
            s.set(i, new BigInteger(be));
        }
        return s;
    }

    /**
     * Skewed digits, the case the GPU MSM splits buckets for: a bucket far longer than a thread's
     * run is summed in levels of runs, and each window's buckets in levels of segments.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void msmKernelsSumSkewedWitnesses(Curve c) throws Exception {
        Random rnd = new Random(c.ordinal() + 29);
        try (Arena a = Arena.ofConfined()) {
            PointVector all = points(a, c, Group.G1, 1 << 16, rnd);
            for (int n : new int[] {1 << 12, 1 << 14, 1 << 16}) {
                PointVector p = all.slice(0, n);
                ScalarVector s = witnessLike(a, c, n, rnd);
                assertEquals(Backend.cpu().msm(p, s), emulatedMsm(p, s, 0), c + " G1 witness-like n=" + n);
            }
            // every scalar 1: one bucket holds every point; 16-bit windows make 4 levels of 32-point runs
            ScalarVector ones = ScalarVector.allocate(a, c, 1 << 16, ScalarForm.CANONICAL);
            for (int i = 0; i < ones.size(); i++) ones.set(i, BigInteger.ONE);
            assertEquals(Backend.cpu().msm(all, ones), emulatedMsm(all, ones, 16), c + " G1 all ones, 16-bit windows");
            if (c == Curve.BN254) {
                ScalarVector real = sampleWitness(a, 1 << 14);
                PointVector p = all.slice(0, 1 << 14);
                assertEquals(Backend.cpu().msm(p, real), emulatedMsm(p, real, 0), "BN254 G1 the sample's witness, repeated");
            }
            PointVector g2 = points(a, c, Group.G2, 1 << 12, rnd);
            ScalarVector s2 = witnessLike(a, c, 1 << 12, rnd);
            assertEquals(Backend.cpu().msm(g2, s2), emulatedMsm(g2, s2, 0), c + " G2 witness-like");
        }
    }

    /** A table of shifted copies of bases made by the kernels' code on the host (block 0: the bases). */
    static MemorySegment emulatedTable(Arena a, PointVector bases, BaseCopies copies) {
        MemorySegment table = a.allocate(Math.max(1, copies.tableBytes(bases.curve(), bases.group(), bases.size())), 8);
        MemorySegment.copy(bases.segment(), 0, table, 0, bases.segment().byteSize());
        MemorySegment cfg = BaseCopies.config(a, bases.curve(), bases.group(), bases.size(), copies);
        Checked.check(cuzk_h.cuzk_emulate_msm_precompute(cfg, table), "cuzk_emulate_msm_precompute");
        return table;
    }

    /** The GPU MSM's algorithm over a table of shifted copies of n bases. */
    static Point emulatedMsm(Curve c, Group g, MemorySegment table, BaseCopies copies, ScalarVector scalars) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = BaseCopies.config(a, c, g, scalars.size(), copies);
            cuzk_msm_config.scalar_form(cfg, scalars.form().id());
            MemorySegment out = a.allocate(c.pointBytes(g), 8);
            Checked.check(cuzk_h.cuzk_emulate_msm(cfg, table, scalars.segment(), out), "cuzk_emulate_msm");
            return Point.ofNative(c, g, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** The scalar's Booth digits in windows of c bits (as the kernels count them). */
    static int windows(Curve c, int bits) {
        return (c.r().bitLength() + bits) / bits;
    }

    /**
     * Shifted copies (fixed-base windows): the table's block k holds 2^(k S c) times each base
     * (checked point by point with the CPU backend's scalar multiplication), and the MSM over the
     * table, which folds the W windows onto S rows of buckets, equals the CPU backend's MSM over
     * the plain bases: both groups, window widths from 2 to 16 bits, tables from 2 blocks to one
     * per window, random, edge and witness-shaped scalars.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void msmKernelsOverShiftedCopiesGiveTheCpuBackendsResults(Curve c) throws Exception {
        Random rnd = new Random(c.ordinal() + 41);
        int[][] shapes = {{2, 3}, {5, 2}, {5, 7}, {8, 0}, {13, 3}, {16, 0}}; // {window bits, blocks; 0 = one per window}
        for (Group g : Group.values()) {
            for (int n : g == Group.G1 ? new int[] {1, 3, 100, 1000} : new int[] {1, 100}) {
                try (Arena a = Arena.ofConfined()) {
                    PointVector p = points(a, c, g, n, rnd);
                    ScalarVector random = scalars(a, c, n, ScalarForm.CANONICAL, rnd);
                    ScalarVector mont = scalars(a, c, n, ScalarForm.MONTGOMERY, rnd);
                    ScalarVector witness = witnessLike(a, c, n, rnd);
                    for (int[] shape : shapes) {
                        int bits = shape[0], w = windows(c, bits);
                        int blocks = shape[1] == 0 ? w : shape[1];
                        BaseCopies copies = BaseCopies.plan(c, g, n, bits, (long) blocks * n * c.pointBytes(g));
                        int rows = (w + blocks - 1) / blocks;
                        assertEquals(new BaseCopies(bits, (w + rows - 1) / rows), copies, "the plan for " + blocks + " blocks");
                        MemorySegment table = emulatedTable(a, p, copies);
                        for (int k = 0; k < copies.copies(); k++) {
                            BigInteger shift = BigInteger.TWO.pow(k * rows * bits).mod(c.r());
                            for (int i : new int[] {0, n / 2, n - 1}) {
                                byte[] got = table.asSlice(((long) k * n + i) * c.pointBytes(g), c.pointBytes(g)).toArray(ValueLayout.JAVA_BYTE);
                                assertEquals(Points.multiply(p.get(i), shift), Point.ofNative(c, g, got),
                                        c + " " + g + " block " + k + " of " + copies + " point " + i);
                            }
                        }
                        for (ScalarVector s : new ScalarVector[] {random, mont, witness}) {
                            assertEquals(Backend.cpu().msm(p, s), emulatedMsm(c, g, table, copies, s),
                                    c + " " + g + " n=" + n + " " + copies + " " + s.form());
                        }
                    }
                }
            }
        }
        // a real size: 2^14 witness-shaped scalars (and the sample's real witness) over one block
        // per window, the GPU's window width
        try (Arena a = Arena.ofConfined()) {
            int n = 1 << 14;
            PointVector p = points(a, c, Group.G1, n, rnd);
            BaseCopies full = BaseCopies.plan(c, Group.G1, n, 0, Long.MAX_VALUE);
            assertEquals(windows(c, full.windowBits()), full.copies(), "a table without a limit has one block per window");
            MemorySegment table = emulatedTable(a, p, full);
            ScalarVector s = witnessLike(a, c, n, rnd);
            assertEquals(Backend.cpu().msm(p, s), emulatedMsm(c, Group.G1, table, full, s), c + " 2^14 " + full);
            if (c == Curve.BN254) {
                ScalarVector real = sampleWitness(a, n);
                assertEquals(Backend.cpu().msm(p, real), emulatedMsm(c, Group.G1, table, full, real), "BN254 the sample's witness over " + full);
            }
        }
    }

    /** A table's config that does not fit its window bits is refused with one line naming what is wrong. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void tablesThatDoNotFitTheirWindowsAreRefused(Curve c) {
        try (Arena a = Arena.ofConfined()) {
            PointVector p = points(a, c, Group.G1, 4, new Random(1));
            ScalarVector s = scalars(a, c, 4, ScalarForm.CANONICAL, new Random(2));
            MemorySegment table = a.allocate(64L * 4 * c.pointBytes(Group.G1), 8);
            MemorySegment cfg = cuzk_msm_config.allocate(a);
            cuzk_msm_config.curve(cfg, c.id());
            cuzk_msm_config.group(cfg, Group.G1.id());
            cuzk_msm_config.count(cfg, p.size());
            cuzk_msm_config.copies(cfg, 3);
            MemorySegment out = a.allocate(c.pointBytes(Group.G1), 8);
            CuzkException noBits = org.junit.jupiter.api.Assertions.assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_emulate_msm(cfg, table, s.segment(), out), "cuzk_emulate_msm"));
            org.junit.jupiter.api.Assertions.assertTrue(noBits.getMessage().contains("needs the window_bits"), noBits.getMessage());
            cuzk_msm_config.window_bits(cfg, 8);
            cuzk_msm_config.copies(cfg, 33);
            CuzkException tooMany = org.junit.jupiter.api.Assertions.assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_emulate_msm_precompute(cfg, table), "cuzk_emulate_msm_precompute"));
            org.junit.jupiter.api.Assertions.assertTrue(tooMany.getMessage().contains("at most the 32 windows of 8 bits"), tooMany.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void nttKernelsGiveTheCpuBackendsResults(Curve c) {
        Random rnd = new Random(c.ordinal() + 11);
        // stage groups: 11 = 6 + 5, 13 = 7 + 6, 16 = 8 + 8, 21 = 7 + 7 + 7 (one kind only: it is slow here)
        for (int k : new int[] {0, 1, 2, 3, 9, 10, 11, 13, 16, 21}) {
            int n = 1 << k;
            for (NttKind kind : k == 21 ? new NttKind[] {NttKind.INVERSE} : NttKind.values()) {
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

    /**
     * Groth16's H by the GPU's algorithm (inverse transforms as DIF, the coset's powers at
     * bit-reversed indices, forward transforms as DIT, no bit-reversal passes) against the CPU
     * backend's, which snarkjs-made proofs check; both forms of h.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void hKernelsGiveTheCpuBackendsResults(Curve c) {
        Random rnd = new Random(c.ordinal() + 31);
        for (int k : new int[] {0, 1, 2, 5, 10, 11, 13, 16}) {
            int n = 1 << k;
            for (ScalarForm form : ScalarForm.values()) {
                try (Arena a = Arena.ofConfined()) {
                    ScalarVector[] cpu = new ScalarVector[3];
                    ScalarVector[] gpu = new ScalarVector[3];
                    for (int v = 0; v < 3; v++) {
                        cpu[v] = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                        for (int i = 0; i < n; i++) {
                            cpu[v].set(i, new BigInteger(c.r().bitLength() + 8, rnd).mod(c.r()));
                        }
                        gpu[v] = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                        MemorySegment.copy(cpu[v].segment(), 0, gpu[v].segment(), 0, cpu[v].segment().byteSize());
                    }
                    Backend.cpu().groth16H(cpu[0], cpu[1], cpu[2], form);
                    MemorySegment cfg = cuzk_h_config.allocate(a);
                    cuzk_h_config.curve(cfg, c.id());
                    cuzk_h_config.log_n(cfg, k);
                    cuzk_h_config.flags(cfg, form == ScalarForm.CANONICAL ? cuzk_h.CUZK_H_CANONICAL() : 0);
                    Checked.check(cuzk_h.cuzk_emulate_groth16_h(cfg, gpu[0].segment(), gpu[1].segment(), gpu[2].segment()),
                            "cuzk_emulate_groth16_h");
                    assertArrayEquals(cpu[0].segment().toArray(ValueLayout.JAVA_BYTE), gpu[0].segment().toArray(ValueLayout.JAVA_BYTE),
                            c + " H 2^" + k + " " + form);
                }
            }
        }
    }
}
