package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Planning tables of shifted copies (no GPU needed): how many blocks fit a memory bound, which
 * window width they are for, and how the CUDA backend shares a key's bound among its point sets.
 */
class BaseCopiesTest {
    @Test
    void thePlanTakesTheMostBlocksWithinTheBound() {
        long n = 1024, point = Curve.BLS12_381.pointBytes(Group.G1);
        // 16-bit windows: W = 16 digits of a 255-bit scalar
        assertEquals(new BaseCopies(16, 16), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, Long.MAX_VALUE));
        assertEquals(new BaseCopies(16, 16), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 16 * n * point));
        assertEquals(new BaseCopies(16, 8), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 15 * n * point)); // 15 -> 2 rows -> 8
        assertEquals(new BaseCopies(16, 4), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 5 * n * point)); // 5 -> 4 rows -> 4
        assertEquals(new BaseCopies(16, 2), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 2 * n * point));
        assertEquals(new BaseCopies(16, 1), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 2 * n * point - 1));
        assertEquals(new BaseCopies(16, 1), BaseCopies.plan(Curve.BLS12_381, Group.G1, n, 16, 0));
        // 0: the GPU MSM's width for the size (8 bits below 2^14): 32 windows
        assertEquals(new BaseCopies(8, 32), BaseCopies.plan(Curve.BN254, Group.G1, n, 0, Long.MAX_VALUE));
        assertEquals(new BaseCopies(16, 16), BaseCopies.plan(Curve.BN254, Group.G1, 1L << 24, 0, Long.MAX_VALUE));
        // G2 points are twice as large
        long g2 = Curve.BN254.pointBytes(Group.G2);
        assertEquals(new BaseCopies(8, 3), BaseCopies.plan(Curve.BN254, Group.G2, n, 8, 3 * n * g2 + g2 - 1)); // 3 -> 11 rows -> 3
        assertEquals(3L * n * g2, new BaseCopies(8, 3).tableBytes(Curve.BN254, Group.G2, n));
        // no points: nothing to copy
        assertEquals(1, BaseCopies.plan(Curve.BN254, Group.G1, 0, 8, Long.MAX_VALUE).copies());
    }

    @Test
    void badPlansAreRefusedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BaseCopies(0, 4));
        assertTrue(e.getMessage().contains("needs the window bits"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new BaseCopies(21, 2));
        assertTrue(e.getMessage().contains("not 21"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BaseCopies.plan(Curve.BN254, Group.G1, 10, 1, 1000));
        assertTrue(e.getMessage().contains("not 1"), e.getMessage());
    }

    /** A key's bound is shared by its G1 point sets in proportion to their sizes. */
    @Test
    void aKeysBoundIsSharedByItsPointSets() {
        try (Arena a = Arena.ofConfined()) {
            Curve c = Curve.BN254;
            long point = c.pointBytes(Group.G1);
            PointVector big = PointVector.allocate(a, c, Group.G1, 4096);
            PointVector small = PointVector.allocate(a, c, Group.G1, 1024);
            PointVector none = PointVector.allocate(a, c, Group.G1, 0);
            List<PointVector> sets = List.of(big, big, small, none);
            assertEquals(List.of(BaseCopies.NONE, BaseCopies.NONE, BaseCopies.NONE, BaseCopies.NONE), CudaBackend.planCopies(sets, 0));
            // room for 9 * 4096 more points: each set's share is 4 more copies of it (8-bit windows below 2^14)
            long room = 9 * 4096 * point;
            List<BaseCopies> plans = CudaBackend.planCopies(sets, room);
            assertEquals(BaseCopies.plan(c, Group.G1, 4096, 0, 4096 * point + 4 * 4096 * point), plans.get(0));
            assertEquals(plans.get(0), plans.get(1));
            assertEquals(BaseCopies.plan(c, Group.G1, 1024, 0, 1024 * point + 4 * 1024 * point), plans.get(2));
            assertEquals(BaseCopies.NONE, plans.get(3));
            assertEquals(new BaseCopies(8, 5), plans.get(0)); // 5 blocks of 32 windows: 7 rows -> 5 blocks
            long used = 0;
            for (int i = 0; i < sets.size(); i++) {
                used += plans.get(i).tableBytes(c, Group.G1, sets.get(i).size()) - sets.get(i).segment().byteSize();
            }
            assertTrue(used <= room, used + " bytes of copies within " + room);
            // no bound to speak of: one block per window for every set
            List<BaseCopies> all = CudaBackend.planCopies(sets, Long.MAX_VALUE);
            assertEquals(List.of(new BaseCopies(8, 32), new BaseCopies(8, 32), new BaseCopies(8, 32), BaseCopies.NONE), all);
            // too little for one more copy of a set: its plain points
            assertEquals(BaseCopies.NONE, CudaBackend.planCopies(List.of(big), 4095 * point).get(0));
        }
    }
}
