package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.cuda.Device;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.Stream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CUDA backend against the CPU backend on a real GPU: G1 MSMs of random and edge inputs and NTTs
 * of every kind, both curves, 2^10 to 2^16 (the device script goes to 2^20). Skips, saying why,
 * where no device is usable.
 */
class CudaBackendTest {
    static String noDevice;

    @BeforeAll
    static void probe() {
        noDevice = CudaTests.noDeviceReason("CUDA backend comparison");
    }

    @BeforeEach
    void needDevice() {
        assumeTrue(noDevice == null, () -> noDevice);
    }

    @Test
    void msmMatchesTheCpu() {
        Backend gpu = Backend.cuda(0);
        Random rnd = new Random(3);
        for (Curve c : Curve.values()) {
            for (int k = 10; k <= 16; k += 3) {
                try (Arena a = Arena.ofConfined()) {
                    PointVector p = GpuEmulationTest.points(a, c, Group.G1, 1 << k, rnd);
                    for (ScalarForm form : ScalarForm.values()) {
                        ScalarVector s = GpuEmulationTest.scalars(a, c, 1 << k, form, rnd);
                        assertEquals(Backend.cpu().msm(p, s), gpu.msm(p, s), c + " 2^" + k + " " + form);
                    }
                }
            }
        }
    }

    /** Device buffers round-trip data, and an arena-scoped one is freed with its arena. */
    @Test
    void buffersCopyAndFreeWithTheirArena() {
        Device d = Device.get(0);
        try (Stream s = Stream.create(d)) {
            long before = d.memoryInfo()[0];
            Arena scope = Arena.ofShared();
            DeviceBuffer b = DeviceBuffer.allocate(scope, s, 64L << 20);
            try (Arena host = Arena.ofConfined()) {
                MemorySegment in = host.allocate(1 << 20), out = host.allocate(1 << 20);
                for (int i = 0; i < in.byteSize(); i += 8) {
                    in.set(ValueLayout.JAVA_LONG, i, i * 31L);
                }
                b.copyFrom(in, 4096, s);
                b.copyTo(out, 4096, s);
                s.synchronize();
                assertArrayEquals(in.toArray(ValueLayout.JAVA_BYTE), out.toArray(ValueLayout.JAVA_BYTE));
            }
            scope.close();
            s.synchronize();
            assertThrows(IllegalStateException.class, b::pointer, "freed with its arena");
            assertTrue(before > 0);
        }
    }

    @Test
    void nttMatchesTheCpu() {
        Backend gpu = Backend.cuda(0);
        Random rnd = new Random(4);
        for (Curve c : Curve.values()) {
            for (int k : new int[] {1, 10, 11, 16}) {
                for (NttKind kind : NttKind.values()) {
                    try (Arena a = Arena.ofConfined()) {
                        ScalarVector x = ScalarVector.allocate(a, c, 1 << k, ScalarForm.MONTGOMERY);
                        for (int i = 0; i < x.size(); i++) {
                            x.set(i, new BigInteger(250, rnd));
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
