package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every CPU code path this machine can run gives the same results: the portable C++ path (run here
 * whatever the CPU) and the x86-64 BMI2/ADX path (skipped, saying so, on CPUs without it). The
 * other tests run on the default path; this one runs MSM, NTT, point checks and field arithmetic
 * on each path and compares them byte for byte, and the MSM with its known answer.
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
        Outputs portable = runEverything(CpuIsa.PORTABLE);
        Outputs adx = runEverything(CpuIsa.X86_ADX);
        assertEquals(portable.bytes().size(), adx.bytes().size());
        for (int i = 0; i < portable.bytes().size(); i++) {
            assertArrayEquals(portable.bytes().get(i), adx.bytes().get(i), "output " + i);
        }
    }

    @Test
    void autoPicksTheBestAvailable() {
        Cuzk.setCpuIsa(CpuIsa.AUTO);
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        assertTrue(info.availableCpuIsas().contains(CpuIsa.PORTABLE));
        assertEquals(info.availableCpuIsas().contains(CpuIsa.X86_ADX) ? CpuIsa.X86_ADX : CpuIsa.PORTABLE, info.cpuIsa());
    }
}
