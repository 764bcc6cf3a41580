package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_abc_config;
import io.cuzk.internal.CriticalCalls;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_h_config;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Native statuses become typed exceptions carrying the status's C name and the native message. */
class ErrorsTest {
    @Test
    void invalidArgumentsCarryNameAndMessage() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_ntt_config.allocate(a);
            cuzk_ntt_config.curve(cfg, 7);
            MemorySegment data = a.allocate(32, 8);
            CuzkException e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_ntt(cfg, data), "cuzk_ntt"));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            assertEquals("CUZK_ERR_INVALID_ARGUMENT", e.nativeName());
            assertTrue(e.nativeMessage().contains("unknown curve 7"), e.nativeMessage());
            assertTrue(e.getMessage().startsWith("cuzk_ntt failed with CUZK_ERR_INVALID_ARGUMENT"), e.getMessage());

            cuzk_ntt_config.curve(cfg, Curve.BN254.id());
            cuzk_ntt_config.log_n(cfg, 29);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_ntt(cfg, data), "cuzk_ntt"));
            assertTrue(e.nativeMessage().contains("log_n 29"), e.nativeMessage());

            MemorySegment msm = cuzk_msm_config.allocate(a);
            cuzk_msm_config.curve(msm, Curve.BN254.id());
            cuzk_msm_config.group(msm, 3);
            e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_msm(msm, MemorySegment.NULL, MemorySegment.NULL, data), "cuzk_msm"));
            assertTrue(e.nativeMessage().contains("unknown group 3"), e.nativeMessage());

            cuzk_msm_config.group(msm, 1);
            cuzk_msm_config.count(msm, 5);
            e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_msm(msm, MemorySegment.NULL, MemorySegment.NULL, data), "cuzk_msm"));
            assertTrue(e.nativeMessage().contains("bases is null"), e.nativeMessage());

            // bases may sit at any address (a zkey's sections do), scalars may not
            MemorySegment unaligned = a.allocate(64 * 6, 8).asSlice(4);
            e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_msm(msm, unaligned, unaligned, data), "cuzk_msm"));
            assertTrue(e.nativeMessage().contains("scalars is not 8-byte aligned"), e.nativeMessage());
        }
    }

    /** The Groth16 steps take config structs (ABI 2): a missing one or unknown flags are refused. */
    @Test
    void groth16ConfigsAreChecked() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(32 * 8, 8);
            MemorySegment w = a.allocate(32 * 8, 8);
            MemorySegment x = a.allocate(32 * 8, 8);
            CuzkException e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_groth16_h(MemorySegment.NULL, v, w, x), "cuzk_groth16_h"));
            assertTrue(e.nativeMessage().contains("config is null"), e.nativeMessage());
            MemorySegment h = cuzk_h_config.allocate(a);
            cuzk_h_config.curve(h, Curve.BN254.id());
            cuzk_h_config.log_n(h, 3);
            cuzk_h_config.flags(h, 4);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_groth16_h(h, v, w, x), "cuzk_groth16_h"));
            assertTrue(e.nativeMessage().contains("unknown flags 4"), e.nativeMessage());
            // preparing takes no vectors; it checks the domain like a real call
            cuzk_h_config.flags(h, cuzk_h.CUZK_H_PREPARE());
            Checked.check(cuzk_h.cuzk_groth16_h(h, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL), "cuzk_groth16_h");
            cuzk_h_config.log_n(h, 40);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_groth16_h(h, MemorySegment.NULL, MemorySegment.NULL,
                    MemorySegment.NULL), "cuzk_groth16_h"));
            assertTrue(e.nativeMessage().contains("log_n 40"), e.nativeMessage());
            // from 2^31 on, log_n was negative as the int the check compared: it passed, and
            // preparing returned OK for a domain of 2^2147483648
            for (int big : new int[] {Integer.MIN_VALUE, -1}) {
                cuzk_h_config.log_n(h, big);
                e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_groth16_h(h, MemorySegment.NULL,
                        MemorySegment.NULL, MemorySegment.NULL), "cuzk_groth16_h"));
                assertEquals(Status.INVALID_ARGUMENT, e.status());
                assertTrue(e.nativeMessage().contains("log_n " + Integer.toUnsignedString(big) + " is above"), e.nativeMessage());
            }
            cuzk_h_config.log_n(h, 3);
            cuzk_h_config.flags(h, 0);
            Checked.check(cuzk_h.cuzk_groth16_h(h, v, w, x), "cuzk_groth16_h");
            cuzk_h_config.log_n(h, 40);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_groth16_h(h, v, w, x), "cuzk_groth16_h"));
            assertTrue(e.nativeMessage().contains("log_n 40"), e.nativeMessage());

            e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_groth16_abc(MemorySegment.NULL, v, w, x), "cuzk_groth16_abc"));
            assertTrue(e.nativeMessage().contains("config is null"), e.nativeMessage());
            MemorySegment abc = cuzk_abc_config.allocate(a);
            cuzk_abc_config.curve(abc, Curve.BN254.id());
            cuzk_abc_config.n_vars(abc, 1);
            cuzk_abc_config.domain_size(abc, 8);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_groth16_abc(abc, v, w, x), "cuzk_groth16_abc"));
            assertTrue(e.nativeMessage().contains("witness is null"), e.nativeMessage());
        }
    }

    @Test
    void everyStatusHasItsNativeName() {
        for (Status s : Status.values()) {
            assertEquals(s.nativeName(), CriticalCalls.cuzk_status_name(s.code()).getString(0));
        }
        assertEquals("CUZK_ERR_UNKNOWN", CriticalCalls.cuzk_status_name(1234).getString(0));
    }

    @Test
    void badPointsNameTheirIndexAndReason() {
        try (Arena a = Arena.ofConfined()) {
            PointVector v = PointVector.allocate(a, Curve.BLS12_381, Group.G1, 5);
            Point g = Points.generator(Curve.BLS12_381, Group.G1);
            for (int i = 0; i < 5; i++) {
                v.set(i, g);
            }
            v.check(Check.all());
            byte[] bad = g.nativeBytes();
            bad[0] ^= 1;
            v.set(3, Point.ofNative(Curve.BLS12_381, Group.G1, bad));
            InvalidPointException e = assertThrows(InvalidPointException.class, () -> v.check(Check.all()));
            assertEquals(3, e.index());
            assertEquals(Status.NOT_ON_CURVE, e.status());
            assertTrue(e.getMessage().contains("point 3"), e.getMessage());
            assertTrue(e.nativeMessage().contains("point 3"), e.nativeMessage());
            v.check(Check.none());
        }
    }
}
