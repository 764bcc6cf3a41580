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
 * The CUDA backend against the CPU backend on a real GPU: G1 and G2 MSMs of random and edge inputs,
 * NTTs of every kind and a proof's MSMs with G2 on either side, both curves, 2^10 to 2^16 (the
 * device script goes to 2^20). Skips, saying why, where no device is usable.
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

    /** G2 MSMs on the device (the backend's single-MSM path puts both groups there unless told CPU). */
    @Test
    void g2MsmMatchesTheCpu() {
        Backend gpu = CudaBackend.open(0, G2Placement.GPU);
        Random rnd = new Random(5);
        for (Curve c : Curve.values()) {
            for (int k = 10; k <= 14; k += 4) {
                try (Arena a = Arena.ofConfined()) {
                    PointVector p = GpuEmulationTest.points(a, c, Group.G2, 1 << k, rnd);
                    ScalarVector s = GpuEmulationTest.scalars(a, c, 1 << k, ScalarForm.CANONICAL, rnd);
                    assertEquals(Backend.cpu().msm(p, s), gpu.msm(p, s), c + " G2 2^" + k);
                    ScalarVector w = GpuEmulationTest.witnessLike(a, c, 1 << k, rnd);
                    assertEquals(Backend.cpu().msm(p, w), gpu.msm(p, w), c + " G2 witness-like 2^" + k);
                }
            }
        }
    }

    /**
     * A proof's five MSMs and H on a lane, with its G2 MSM on the host and on the device, against
     * the CPU backend, over random key points and a random witness (2^12 domain, both curves).
     */
    @Test
    void lanesGiveTheCpusGroth16SumsWithG2OnEitherSide() {
        Random rnd = new Random(9);
        for (Curve c : Curve.values()) {
            int n = 1 << 12, vars = 3000, pub = 2;
            try (Arena a = Arena.ofShared()) {
                Groth16Bases g = new Groth16Bases(c, vars, pub, GpuEmulationTest.points(a, c, Group.G1, vars, rnd),
                        GpuEmulationTest.points(a, c, Group.G1, vars, rnd), GpuEmulationTest.points(a, c, Group.G2, vars, rnd),
                        GpuEmulationTest.points(a, c, Group.G1, vars - pub - 1, rnd), GpuEmulationTest.points(a, c, Group.G1, n, rnd));
                ScalarVector witness = GpuEmulationTest.witnessLike(a, c, vars, rnd);
                ScalarVector[] abc = new ScalarVector[3];
                for (int i = 0; i < 3; i++) {
                    abc[i] = GpuEmulationTest.scalars(a, c, n, ScalarForm.MONTGOMERY, rnd);
                }
                Groth16Msms expected;
                try (Backend.Resident r = Backend.cpu().resident(g)) {
                    expected = Backend.cpu().groth16(r, inputs(a, witness, abc));
                }
                for (G2Placement place : new G2Placement[] {G2Placement.CPU, G2Placement.GPU}) {
                    CudaBackend gpu = CudaBackend.open(0, place);
                    try (Backend.Resident r = gpu.resident(g)) {
                        assertEquals(place == G2Placement.GPU, gpu.g2OnGpu(r));
                        assertEquals(expected, gpu.groth16(r, inputs(a, witness, abc)), c + " G2 on " + place);
                    }
                }
                // the key's G1 point sets as tables of shifted copies (room for 8 more copies of each)
                long room = 8L * (2L * vars + (vars - pub - 1) + n) * c.pointBytes(Group.G1);
                CudaBackend shifted = CudaBackend.open(0, G2Placement.CPU, room);
                try (Backend.Resident r = shifted.resident(g)) {
                    for (BaseCopies copies : shifted.baseCopies(r)) {
                        assertTrue(copies.shifted(), c + " " + copies);
                    }
                    assertEquals(expected, shifted.groth16(r, inputs(a, witness, abc)), c + " over shifted copies");
                }
            }
        }
    }

    /**
     * Tables of shifted copies made on the device equal the host emulation's byte for byte (the PTX
     * against the kernels' code), and MSMs over them equal the CPU backend's over the plain points:
     * both groups and curves, one block per window and three blocks of 13-bit windows.
     */
    @Test
    void shiftedCopiesMatchTheEmulationAndTheCpu() {
        CudaBackend gpu = CudaBackend.open(0, G2Placement.GPU);
        Random rnd = new Random(13);
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                int n = g == Group.G1 ? 1 << 12 : 1 << 10;
                try (Arena a = Arena.ofShared(); Stream s = Stream.create(gpu.device())) {
                    PointVector p = GpuEmulationTest.points(a, c, g, n, rnd);
                    ScalarVector w = GpuEmulationTest.witnessLike(a, c, n, rnd);
                    for (BaseCopies copies : new BaseCopies[] {BaseCopies.plan(c, g, n, 0, Long.MAX_VALUE),
                            BaseCopies.plan(c, g, n, 13, 3L * n * c.pointBytes(g))}) {
                        long bytes = copies.tableBytes(c, g, n);
                        MemorySegment expected = GpuEmulationTest.emulatedTable(a, p, copies);
                        MemorySegment back = a.allocate(bytes, 8);
                        try (DeviceBuffer table = DeviceBuffer.allocate(s, bytes); DeviceBuffer ds = DeviceBuffer.allocate(s, w.segment().byteSize())) {
                            table.copyFrom(p.segment(), 0, s);
                            gpu.precompute(s, c, g, table, n, copies);
                            table.copyTo(back, 0, s);
                            ds.copyFrom(w.segment(), 0, s);
                            s.synchronize();
                            assertArrayEquals(expected.toArray(ValueLayout.JAVA_BYTE), back.toArray(ValueLayout.JAVA_BYTE),
                                    c + " " + g + " table " + copies);
                            Point sum = gpu.startMsmAt(s, c, g, table, copies, ds, 0, n, ScalarForm.CANONICAL).finish();
                            assertEquals(Backend.cpu().msm(p, w), sum, c + " " + g + " MSM over " + copies);
                        }
                    }
                }
            }
        }
    }

    /**
     * The pool keeps what kernels free (up to a quarter of the device by default) and gives it all
     * back, with the staging chunks, once the device has been idle: once per quiet period.
     */
    @Test
    void idlePoolMemoryIsGivenBack() {
        CudaBackend gpu = CudaBackend.open(0, G2Placement.AUTO);
        assertEquals(gpu.device().properties().totalGlobalMemory() / 4, gpu.poolKeepBytes());
        Random rnd = new Random(11);
        try (Arena a = Arena.ofConfined()) {
            PointVector p = GpuEmulationTest.points(a, Curve.BN254, Group.G1, 1 << 14, rnd);
            ScalarVector s = GpuEmulationTest.scalars(a, Curve.BN254, 1 << 14, ScalarForm.CANONICAL, rnd);
            gpu.msm(p, s);
        }
        Device.PoolUsage kept = gpu.device().poolUsage();
        assertTrue(kept.reservedBytes() > kept.usedBytes(), "the MSM's freed buffers stay in the pool: " + kept);
        long later = System.nanoTime() + java.util.concurrent.TimeUnit.HOURS.toNanos(1);
        assertTrue(gpu.releaseIfIdle(later));
        Device.PoolUsage after = gpu.device().poolUsage();
        assertEquals(after.usedBytes(), after.reservedBytes(), "only memory in use is left: " + after);
        assertTrue(!gpu.releaseIfIdle(later), "one quiet period, one release");
    }

    /** Fresh copies of a, b and c (the kernels overwrite them). */
    static Groth16Inputs inputs(Arena a, ScalarVector witness, ScalarVector[] abc) {
        ScalarVector[] copy = new ScalarVector[3];
        for (int i = 0; i < 3; i++) {
            copy[i] = ScalarVector.allocate(a, abc[i].curve(), abc[i].size(), ScalarForm.MONTGOMERY);
            MemorySegment.copy(abc[i].segment(), 0, copy[i].segment(), 0, abc[i].segment().byteSize());
        }
        return new Groth16Inputs(witness, copy[0], copy[1], copy[2], a);
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
