package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The device script's GPU checks: G1 MSM and G2 MSM (the CUDA kernels; G2 up to 2^16) against the
 * CPU backend, and NTTs of every kind, on both curves, at 2^10 to 2^20 with random
 * and edge inputs. Runs where -Dcuzk.gpu.full=true and a CUDA device is usable; skips otherwise,
 * saying why (the regular build runs CudaBackendTest's smaller sizes where a GPU is present).
 */
class GpuScaleTest {
    static String skip;

    @BeforeAll
    static void probe() {
        if (!Boolean.getBoolean("cuzk.gpu.full")) {
            skip = "the 2^10..2^20 GPU comparison runs in tests/device/run.sh (-Dcuzk.gpu.full=true)";
        } else {
            skip = CudaTests.noDeviceReason("GPU scale comparison");
        }
    }

    @BeforeEach
    void need() {
        assumeTrue(skip == null, () -> skip);
    }

    @Test
    void msmAt2To10Through2To20() {
        Backend gpu = Backend.cuda(0);
        Random rnd = new Random(20);
        for (Curve c : Curve.values()) {
            for (int k = 10; k <= 20; k += 2) {
                for (Group g : Group.values()) {
                    if (g == Group.G2 && k > 16) {
                        continue; // the CPU's reference G2 MSMs and random G2 points above 2^16 would take most of the step's time
                    }
                    try (Arena a = Arena.ofShared()) {
                        int n = (1 << k) - (k % 4 == 0 ? 3 : 0); // and sizes that are not powers of two
                        PointVector p = GpuEmulationTest.points(a, c, g, n, rnd);
                        ScalarVector s = GpuEmulationTest.scalars(a, c, n, k % 4 == 0 ? ScalarForm.MONTGOMERY : ScalarForm.CANONICAL, rnd);
                        assertEquals(Backend.cpu().msm(p, s), gpu.msm(p, s), c + " " + g + " n=" + n);
                    }
                }
            }
        }
    }

    /** Groth16-shaped scalars (a third of them 1: one very long bucket), the case buckets are split for. */
    @Test
    void msmOfWitnessLikeScalarsAt2To12Through2To20() {
        Backend gpu = Backend.cuda(0);
        Random rnd = new Random(22);
        for (Curve c : Curve.values()) {
            for (int k = 12; k <= 20; k += 4) {
                try (Arena a = Arena.ofShared()) {
                    PointVector p = GpuEmulationTest.points(a, c, Group.G1, 1 << k, rnd);
                    ScalarVector s = GpuEmulationTest.witnessLike(a, c, 1 << k, rnd);
                    assertEquals(Backend.cpu().msm(p, s), gpu.msm(p, s), c + " G1 witness-like n=2^" + k);
                }
            }
        }
    }

    @Test
    void nttAt2To10Through2To20() {
        Backend gpu = Backend.cuda(0);
        Random rnd = new Random(21);
        for (Curve c : Curve.values()) {
            for (int k = 10; k <= 20; k += 5) {
                for (NttKind kind : NttKind.values()) {
                    try (Arena a = Arena.ofShared()) {
                        ScalarVector x = ScalarVector.allocate(a, c, 1 << k, ScalarForm.MONTGOMERY);
                        for (int i = 0; i < x.size(); i += 7) {
                            x.set(i, new BigInteger(253, rnd));
                        }
                        ScalarVector y = ScalarVector.allocate(a, c, 1 << k, ScalarForm.MONTGOMERY);
                        MemorySegment.copy(x.segment(), 0, y.segment(), 0, x.segment().byteSize());
                        Backend.cpu().ntt(x, kind);
                        gpu.ntt(y, kind);
                        assertArrayEquals(x.segment().toArray(ValueLayout.JAVA_BYTE), y.segment().toArray(ValueLayout.JAVA_BYTE),
                                c + " 2^" + k + " " + kind);
                    }
                }
            }
        }
    }
}
