package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static io.cuzk.CpuIsa.PORTABLE;
import static io.cuzk.CpuIsa.X86_ADX;
import static io.cuzk.CpuIsa.X86_IFMA;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every CPU code path this machine can run gives the same results: the portable C++ path (run here
 * whatever the CPU), the x86-64 BMI2/ADX path and the AVX-512 IFMA path (each skipped, saying so,
 * on CPUs without it). The other tests run on the default path (the best available); this one
 * runs MSM, NTT, point checks, field arithmetic and products of pairings on each path and compares
 * them byte for byte, and the MSM and the pairings with their known answers.
 */
class CpuIsaTest {
    @AfterEach
    void restoreDefault() {
        Cuzk.setCpuIsa(CpuIsa.AUTO);
    }

    record Outputs(List<byte[]> bytes) {}

    static Outputs runEverything(CpuIsa isa) {
        Cuzk.setCpuIsa(isa);
        assertEquals(isa, Cuzk.libraryInfo().cpuIsa());
        List<byte[]> out = new ArrayList<>();
        for (Curve c : Curve.values()) {
            try (Arena a = Arena.ofConfined()) {
                for (Group g : Group.values()) {
                    int n = 700; // above the batched-affine threshold
                    PointVector gs = PointVector.allocate(a, c, g, n);
                    ScalarVector m = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
                    ScalarVector k = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
                    Random rnd = new Random(1);
                    BigInteger sum = BigInteger.ZERO;
                    for (int i = 0; i < n; i++) {
                        gs.set(i, Points.generator(c, g));
                        BigInteger mi = new BigInteger(64, rnd);
                        BigInteger ki = new BigInteger(256, rnd);
                        m.set(i, mi);
                        k.set(i, ki);
                        sum = sum.add(mi.multiply(ki));
                    }
                    PointVector bases = PointVector.allocate(a, c, g, n);
                    Points.multiply(gs, m, bases);
                    bases.check(Check.all());
                    Point msm = Backend.cpu().msm(bases, k);
                    assertEquals(Points.multiply(Points.generator(c, g), sum.mod(c.r())), msm, isa + " " + c + " " + g);
                    out.add(bases.segment().toArray(ValueLayout.JAVA_BYTE));
                    out.add(msm.nativeBytes());
                }
                ScalarVector poly = ScalarVector.allocate(a, c, 1 << 12, ScalarForm.MONTGOMERY);
                Random rnd = new Random(2);
                for (int i = 0; i < poly.size(); i++) {
                    poly.set(i, new BigInteger(256, rnd));
                }
                Backend.cpu().ntt(poly, NttKind.COSET_FORWARD);
                out.add(poly.segment().toArray(ValueLayout.JAVA_BYTE));
                // Groth16's H: below the IFMA path's smallest size, inside one of its blocks, and
                // with stages across blocks
                for (int log : new int[] {3, 7, 13}) {
                    ScalarVector[] abc = new ScalarVector[3];
                    for (int j = 0; j < 3; j++) {
                        abc[j] = ScalarVector.allocate(a, c, 1 << log, ScalarForm.MONTGOMERY);
                        for (int i = 0; i < abc[j].size(); i++) {
                            abc[j].set(i, new BigInteger(256, rnd));
                        }
                    }
                    ScalarVector[] copy = new ScalarVector[3];
                    for (int j = 0; j < 3; j++) {
                        copy[j] = ScalarVector.allocate(a, c, 1 << log, ScalarForm.MONTGOMERY);
                        MemorySegment.copy(abc[j].segment(), 0, copy[j].segment(), 0, abc[j].segment().byteSize());
                    }
                    Backend.cpu().groth16H(abc[0], abc[1], abc[2], ScalarForm.MONTGOMERY);
                    out.add(abc[0].segment().toArray(ValueLayout.JAVA_BYTE));
                    Backend.cpu().groth16H(copy[0], copy[1], copy[2], ScalarForm.CANONICAL); // left ready for the MSM
                    out.add(copy[0].segment().toArray(ValueLayout.JAVA_BYTE));
                }
                // products of many pairings: their running points affine from 8 pairs on (on x86-ifma
                // eight pairs at a time in vector lanes, a last group part-filled at 13, and at 41,
                // which is split over the native threads from 32 pairs on, in each part); and their
                // known answer, one when the last pair cancels the others
                Random prnd = new Random(3);
                Point g1 = Points.generator(c, Group.G1), g2 = Points.generator(c, Group.G2);
                for (int n : new int[] {8, 13, 16, 41}) {
                    List<Point> ps = new ArrayList<>(), qs = new ArrayList<>();
                    BigInteger sum = BigInteger.ZERO;
                    for (int i = 0; i < n; i++) {
                        BigInteger x = new BigInteger(200, prnd), y = new BigInteger(200, prnd);
                        ps.add(Points.multiply(g1, x));
                        qs.add(Points.multiply(g2, y));
                        sum = sum.add(x.multiply(y));
                    }
                    for (BigInteger v : Pairing.product(ps, qs)) {
                        out.add(v.toByteArray());
                    }
                    ps.add(Points.multiply(g1, sum.mod(c.r())).negated());
                    qs.add(g2);
                    assertTrue(Pairing.isOne(ps, qs), isa + " " + c + ": " + n + " pairs and the one that cancels them");
                }
            }
        }
        return new Outputs(out);
    }

    @Test
    void thePortablePathGivesTheKnownAnswers() {
        runEverything(CpuIsa.PORTABLE);
    }

    @Test
    void theAdxPathMatchesThePortablePath() {
        assumeTrue(Cuzk.libraryInfo().availableCpuIsas().contains(CpuIsa.X86_ADX),
                "this CPU or build has no BMI2/ADX code path: only the portable path was checked");
        assertMatchesPortable(X86_ADX);
    }

    static void assertMatchesPortable(CpuIsa isa) {
        Outputs portable = runEverything(PORTABLE);
        Outputs other = runEverything(isa);
        assertEquals(portable.bytes().size(), other.bytes().size());
        for (int i = 0; i < portable.bytes().size(); i++) {
            assertArrayEquals(portable.bytes().get(i), other.bytes().get(i), isa + " output " + i);
        }
    }

    @Test
    void theIfmaPathMatchesThePortablePath() {
        assumeTrue(Cuzk.libraryInfo().availableCpuIsas().contains(CpuIsa.X86_IFMA),
                "this CPU or build has no AVX-512 IFMA code path: it was not checked");
        assertMatchesPortable(X86_IFMA);
    }

    /**
     * The IFMA path's G1 and G2 MSMs on inputs that take their rarer branches (equal x coordinates sent to
     * the overflow sums, negated points, zero scalars, infinity, batches that are not a multiple
     * of eight), at sizes around its thresholds. Every base is a known multiple of the generator,
     * so the answer is one scalar multiplication of the generator.
     */
    @Test
    void theIfmaMsmMatchesOnEdgeInputs() {
        assumeTrue(Cuzk.libraryInfo().availableCpuIsas().contains(CpuIsa.X86_IFMA),
                "this CPU or build has no AVX-512 IFMA code path: it was not checked");
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                for (int n : new int[] {511, 512, 513, 1000, 4099}) {
                    assertIfmaMatchesOnEdgeInputs(c, g, n);
                }
            }
        }
    }

    /**
     * Few overflow sums: mostly distinct bases, with a few points repeated right after their twin
     * with the same scalar, so that in most windows the repeat finds its twin alone in a bucket
     * (equal x: the repeat goes to that bucket's overflow sum) in a handful of buckets out of
     * many; the IFMA path weighs such sums one by one instead of by running sums.
     */
    @Test
    void theIfmaMsmAddsAFewOverflowSums() {
        assumeTrue(Cuzk.libraryInfo().availableCpuIsas().contains(CpuIsa.X86_IFMA),
                "this CPU or build has no AVX-512 IFMA code path: it was not checked");
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                try (Arena a = Arena.ofConfined()) {
                    int[] index = {0};
                    BigInteger[] last = new BigInteger[2];
                    KnownMsm msm = KnownMsm.of(a, c, g, 4096, 5, new Random(99),
                            rnd -> index[0] % 512 == 1 ? last[0] : (last[0] = new BigInteger(64, rnd).add(BigInteger.ONE)),
                            rnd -> index[0]++ % 512 == 1 ? last[1] : (last[1] = new BigInteger(c.r().bitLength() - 1, rnd)));
                    Cuzk.setCpuIsa(CpuIsa.X86_IFMA);
                    for (int threads : new int[] {1, 2}) {
                        assertEquals(msm.expected(), Backend.cpu(threads).msm(msm.bases(), msm.scalars()),
                                c + " " + g + " threads=" + threads);
                    }
                }
            }
        }
    }

    /**
     * An MSM with a known answer: bases m_i·G (base i replaced by infinity) and scalars k_i, drawn
     * in turn from rnd; the answer is (Σ k_i m_i)·G over the other points.
     */
    record KnownMsm(PointVector bases, ScalarVector scalars, Point expected) {
        static KnownMsm of(Arena a, Curve c, Group g, int n, int infinityAt, Random rnd, Function<Random, BigInteger> base,
                Function<Random, BigInteger> scalar) {
            PointVector gs = PointVector.allocate(a, c, g, n);
            ScalarVector m = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
            ScalarVector k = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
            BigInteger sum = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                gs.set(i, Points.generator(c, g));
                BigInteger mi = base.apply(rnd);
                m.set(i, mi);
                BigInteger ki = scalar.apply(rnd);
                k.set(i, ki);
                if (i != infinityAt) {
                    sum = sum.add(mi.multiply(ki));
                }
            }
            PointVector bases = PointVector.allocate(a, c, g, n);
            Points.multiply(gs, m, bases);
            bases.set(infinityAt, Point.infinity(c, g));
            return new KnownMsm(bases, k, Points.multiply(Points.generator(c, g), sum.mod(c.r())));
        }
    }

    static void assertIfmaMatchesOnEdgeInputs(Curve c, Group g, int n) {
        try (Arena a = Arena.ofConfined()) {
            KnownMsm msm = KnownMsm.of(a, c, g, n, n / 2, new Random(n), rnd -> {
                // few distinct bases (equal and opposite points meet in the buckets)
                BigInteger v = BigInteger.valueOf(1 + rnd.nextInt(6));
                return rnd.nextBoolean() ? v : c.r().subtract(v);
            }, rnd -> switch (rnd.nextInt(6)) { // scalars from a small set, zeros, r - 1 and values above r
                case 0 -> BigInteger.ZERO;
                case 1 -> c.r().subtract(BigInteger.ONE);
                case 2 -> BigInteger.valueOf(rnd.nextInt(5));
                case 3 -> c.r().add(BigInteger.valueOf(rnd.nextInt(1000)));
                default -> new BigInteger(c.r().bitLength() - 1, rnd);
            });
            Cuzk.setCpuIsa(CpuIsa.X86_IFMA);
            for (int threads : new int[] {1, 2}) {
                assertEquals(msm.expected(), Backend.cpu(threads).msm(msm.bases(), msm.scalars()),
                        c + " " + g + " n=" + n + " threads=" + threads);
            }
        }
    }

    /**
     * A witness that is mostly booleans: scalars of one are summed apart from the windows (and
     * zeros skipped) once they are many; the result must not change, on every path this CPU has,
     * whether the ones are a few (not taken apart), most, or all of the scalars.
     */
    @Test
    void mostlyOnesAndZerosGiveTheKnownAnswer() {
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                for (int[] shape : new int[][] {{600, 95}, {5000, 70}, {5000, 100}, {3000, 3}}) {
                    assertMostlyOnes(c, g, shape[0], shape[1]);
                }
            }
        }
    }

    static void assertMostlyOnes(Curve c, Group g, int n, int onesPercent) {
        try (Arena a = Arena.ofConfined()) {
            // some bases repeat, some are opposite: equal points meet in the ones' buckets too
            KnownMsm msm = KnownMsm.of(a, c, g, n, 7, new Random(31L * n + onesPercent),
                    rnd -> rnd.nextInt(4) == 0 ? c.r().subtract(BigInteger.valueOf(1 + rnd.nextInt(3)))
                            : new BigInteger(64, rnd).add(BigInteger.ONE),
                    rnd -> {
                        int roll = rnd.nextInt(100);
                        return roll < onesPercent ? BigInteger.ONE
                                : roll < onesPercent + (100 - onesPercent) / 2 ? BigInteger.ZERO
                                : new BigInteger(c.r().bitLength() - 1, rnd);
                    });
            for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
                Cuzk.setCpuIsa(isa);
                for (int threads : new int[] {1, 2}) {
                    assertEquals(msm.expected(), Backend.cpu(threads).msm(msm.bases(), msm.scalars()),
                            isa + " " + c + " " + g + " n=" + n + " ones " + onesPercent + "% threads=" + threads);
                }
            }
        }
    }

    /**
     * Bases at any address: a zkey's point sections start 4 bytes past an 8-byte boundary, and
     * the prover reads them where the file is mapped. On every path this CPU has, with 1 and 2
     * threads, an MSM over bases moved 1, 4 and 12 bytes off alignment gives the known answer, at
     * sizes that take the small-task sums, the batched additions, and (a third of the scalars
     * one) the ones' separate sums; the GPU algorithm's host emulation, the point encoder (also
     * with a source stride that is no multiple of 8) and the point operations read such points
     * too, with the results they give for aligned ones.
     */
    @Test
    void pointsAtAnyAddressGiveTheSameResults() {
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                for (int n : new int[] {100, 700, 3000}) {
                    try (Arena a = Arena.ofConfined()) {
                        KnownMsm msm = KnownMsm.of(a, c, g, n, n / 3, new Random(n + 5L),
                                rnd -> new BigInteger(64, rnd).add(BigInteger.ONE),
                                rnd -> rnd.nextInt(3) == 0 ? BigInteger.ONE : new BigInteger(c.r().bitLength() - 1, rnd));
                        PointVector aligned = msm.bases();
                        long bytes = aligned.segment().byteSize();
                        for (int offset : new int[] {1, 4, 12}) {
                            MemorySegment moved = a.allocate(bytes + offset, 64).asSlice(offset, bytes);
                            moved.copyFrom(aligned.segment());
                            PointVector bases = PointVector.wrap(c, g, moved);
                            String what = c + " " + g + " n=" + n + " offset " + offset;
                            for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
                                Cuzk.setCpuIsa(isa);
                                for (int threads : new int[] {1, 2}) {
                                    assertEquals(msm.expected(), Backend.cpu(threads).msm(bases, msm.scalars()),
                                            isa + " " + what + " threads=" + threads);
                                }
                            }
                            Cuzk.setCpuIsa(CpuIsa.AUTO);
                            if (n == 700) {
                                assertEquals(msm.expected(), GpuEmulationTest.emulatedMsm(bases, msm.scalars(), 0), "emulated " + what);
                            }
                            for (Encoding e : Encoding.values()) {
                                if (e.supports(c)) {
                                    MemorySegment want = a.allocate(n * (long) e.pointBytes(c, g), 8);
                                    MemorySegment got = a.allocate(want.byteSize(), 8);
                                    Codec.encodePoints(aligned, e, want);
                                    Codec.encodePoints(bases, e, got);
                                    assertEquals(-1, want.mismatch(got), e + " encoding, " + what);
                                }
                            }
                            // the encoder with a source stride that is not a multiple of 8 either
                            long stride = aligned.pointBytes() + offset;
                            MemorySegment strided = a.allocate(n * stride, 8);
                            for (int i = 0; i < n; i++) {
                                MemorySegment.copy(aligned.segment(), (long) i * aligned.pointBytes(), strided, i * stride, aligned.pointBytes());
                            }
                            MemorySegment packed = a.allocate(n * (long) Encoding.NATIVE.pointBytes(c, g), 8);
                            MemorySegment fromStrided = a.allocate(packed.byteSize(), 8);
                            Codec.encodePoints(aligned, Encoding.NATIVE, packed);
                            MemorySegment cfg = Codec.config(a, c, g, Encoding.NATIVE, n);
                            cuzk_codec_config.src_stride(cfg, stride);
                            Checked.check(cuzk_h.cuzk_points_encode(cfg, strided, fromStrided), "cuzk_points_encode");
                            assertEquals(-1, packed.mismatch(fromStrided), "encoding with src_stride " + stride + ", " + what);
                            PointVector want = PointVector.allocate(a, c, g, n);
                            PointVector got = PointVector.allocate(a, c, g, n);
                            Points.multiply(aligned, msm.scalars(), want);
                            Points.multiply(bases, msm.scalars(), got);
                            assertEquals(-1, want.segment().mismatch(got.segment()), "point multiplications, " + what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void autoPicksTheBestAvailable() {
        Cuzk.setCpuIsa(CpuIsa.AUTO);
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        Set<CpuIsa> available = info.availableCpuIsas();
        assertTrue(available.contains(PORTABLE));
        CpuIsa best = available.contains(X86_IFMA) ? X86_IFMA : available.contains(X86_ADX) ? X86_ADX : PORTABLE;
        assertEquals(best, info.cpuIsa());
        assertTrue(!available.contains(X86_IFMA) || available.contains(X86_ADX), "IFMA implies the ADX path");
    }
}
