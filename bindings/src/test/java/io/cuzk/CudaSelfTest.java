package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.CudaChecked;
import io.cuzk.internal.ffi.cuzk_cuda_h;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic compiled by nvcc against the same arithmetic compiled for the host: every field
 * and point operation on random inputs, element by element. Skips, saying why, where no CUDA
 * device is usable (no GPU, no driver, or a library built without nvcc).
 */
class CudaSelfTest {
    /** Why the GPU checks cannot run here, or null when a device is usable. */
    static String noDevice;

    @BeforeAll
    static void probeDevice() {
        noDevice = CudaTests.noDeviceReason("GPU arithmetic check");
    }

    @BeforeEach
    void needsDevice() {
        assumeTrue(noDevice == null, () -> noDevice);
    }

    static MemorySegment random(Arena a, long bytes, BigInteger modulus, int elemBytes, long seed) {
        Random rnd = new Random(seed);
        MemorySegment s = a.allocate(bytes, 8);
        byte[] buf = new byte[elemBytes];
        for (long off = 0; off < bytes; off += elemBytes) {
            Point.putLe(buf, 0, elemBytes, new BigInteger(elemBytes * 8, rnd).mod(modulus));
            MemorySegment.copy(MemorySegment.ofArray(buf), 0, s, off, elemBytes);
        }
        return s;
    }

    @Test
    void fieldOperationsAgreeWithTheHost() {
        int n = 4096;
        for (Curve c : Curve.values()) {
            for (int field = 0; field <= 2; field++) {
                BigInteger m = field == 1 ? c.r() : c.p();
                int elem = field == 1 ? 32 : c.fpBytes();
                long bytes = (long) n * elem * (field == 2 ? 2 : 1);
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment x = random(a, bytes, m, elem, 1);
                    MemorySegment y = random(a, bytes, m, elem, 2);
                    for (int op = 0; op <= 7; op++) {
                        MemorySegment host = a.allocate(bytes, 8);
                        MemorySegment gpu = a.allocate(bytes, 8);
                        Checked.check(cuzk_h.cuzk_field_op(c.id(), field, op, x, y, host, n), "cuzk_field_op");
                        CudaChecked.check(cuzk_cuda_h.cuzk_cuda_field_op(0, c.id(), field, op, x, y, gpu, n), "cuzk_cuda_field_op");
                        assertArrayEquals(host.toArray(ValueLayout.JAVA_BYTE), gpu.toArray(ValueLayout.JAVA_BYTE),
                                c + " field " + field + " op " + op);
                    }
                }
            }
        }
    }

    @Test
    void pointOperationsAgreeWithTheHost() {
        int n = 256;
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                try (Arena a = Arena.ofConfined()) {
                    PointVector gs = PointVector.allocate(a, c, g, n);
                    ScalarVector k = ScalarVector.allocate(a, c, n, ScalarForm.CANONICAL);
                    Random rnd = new Random(5);
                    for (int i = 0; i < n; i++) {
                        gs.set(i, Points.generator(c, g));
                        k.set(i, new BigInteger(256, rnd));
                    }
                    PointVector p = PointVector.allocate(a, c, g, n);
                    Points.multiply(gs, k, p);
                    PointVector q = PointVector.allocate(a, c, g, n);
                    Points.multiply(p, k, q);
                    long bytes = (long) n * c.pointBytes(g);
                    for (int op = 0; op <= 4; op++) {
                        MemorySegment b = op == 3 ? k.segment() : q.segment();
                        MemorySegment host = a.allocate(bytes, 8);
                        MemorySegment gpu = a.allocate(bytes, 8);
                        Checked.check(cuzk_h.cuzk_point_op(c.id(), g.id(), op, p.segment(), b, host, n), "cuzk_point_op");
                        CudaChecked.check(cuzk_cuda_h.cuzk_cuda_point_op(0, c.id(), g.id(), op, p.segment(), b, gpu, n), "cuzk_cuda_point_op");
                        assertArrayEquals(host.toArray(ValueLayout.JAVA_BYTE), gpu.toArray(ValueLayout.JAVA_BYTE),
                                c + " " + g + " op " + op);
                    }
                }
            }
        }
    }
}
