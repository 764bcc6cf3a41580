package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The canonical and on-curve checks of a vector of points (what a key's sections get when it is
 * read), on every CPU path this machine has: the x86-ifma path checks eight points at a time and
 * goes point by point only where a group fails, so bad points sit at every position of a group,
 * of a 256-point chunk and of the tail, in a vector moved 4 bytes off alignment as a zkey's are.
 */
class PointCheckTest {
    static final Set<Check> KEY = EnumSet.of(Check.CANONICAL, Check.ON_CURVE);
    static final int N = 1003; // three whole chunks of 256 and a tail that is not a whole group of 8
    static final int[] POSITIONS = {0, 5, 8, 255, 256, 517, 999, 1002};

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
            for (Curve c : Curve.values()) {
                for (Group g : Group.values()) {
                    all.add(Arguments.of(isa, c, g));
                }
            }
        }
        return all.stream();
    }

    @AfterEach
    void restoreTheDefaultPath() {
        Cuzk.setCpuIsa(CpuIsa.AUTO);
    }

    /** N valid points (multiples of the generator, every 11th one infinity) at an address 4 bytes past 8-byte alignment. */
    static PointVector validPoints(Arena arena, Curve c, Group g) {
        int size = c.pointBytes(g);
        MemorySegment raw = arena.allocate((long) N * size + 4, 8).asSlice(4);
        PointVector v = PointVector.wrap(c, g, raw);
        Random rnd = new Random(c.ordinal() * 10 + g.ordinal());
        Point gen = Points.generator(c, g);
        Point p = gen;
        for (int i = 0; i < N; i++) {
            v.set(i, i % 11 == 10 ? Point.infinity(c, g) : p);
            p = Points.add(p, i % 2 == 0 ? gen : Points.multiply(gen, BigInteger.valueOf(rnd.nextInt(1000) + 2)));
        }
        return v;
    }

    /** Puts back the bytes of point i after a test has spoiled them. */
    static void restore(PointVector v, int i, byte[] saved) {
        MemorySegment.copy(saved, 0, v.segment(), ValueLayout.JAVA_BYTE, (long) i * v.pointBytes(), saved.length);
    }

    static byte[] bytesOf(PointVector v, int i) {
        return v.segment().asSlice((long) i * v.pointBytes(), v.pointBytes()).toArray(ValueLayout.JAVA_BYTE);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyBadPointIsFoundWithItsIndexAndReason(CpuIsa isa, Curve c, Group g) {
        Cuzk.setCpuIsa(isa);
        int fpBytes = c.fpBytes();
        try (Arena arena = Arena.ofConfined()) {
            PointVector v = validPoints(arena, c, g);
            v.check(KEY);
            v.check(EnumSet.of(Check.CANONICAL));
            for (int i : POSITIONS) {
                if (i % 11 == 10) {
                    continue; // infinity
                }
                byte[] saved = bytesOf(v, i);
                long at = (long) i * v.pointBytes();

                // y + 1: canonical, off the curve
                v.segment().set(ValueLayout.JAVA_BYTE, at + (long) v.pointBytes() / 2, (byte) (saved[v.pointBytes() / 2] ^ 1));
                InvalidPointException e = assertThrows(InvalidPointException.class, () -> v.check(KEY), isa + " " + c + " " + g + " " + i);
                assertEquals(i, e.index());
                assertEquals(Status.NOT_ON_CURVE, e.status());
                v.check(EnumSet.of(Check.CANONICAL)); // still canonical
                restore(v, i, saved);

                // the last coordinate's top byte all ones: not below p
                v.segment().set(ValueLayout.JAVA_BYTE, at + v.pointBytes() - 1, (byte) 0xff);
                e = assertThrows(InvalidPointException.class, () -> v.check(KEY), isa + " " + c + " " + g + " " + i);
                assertEquals(i, e.index());
                assertEquals(Status.NOT_CANONICAL, e.status());
                e = assertThrows(InvalidPointException.class, () -> v.check(EnumSet.of(Check.CANONICAL)));
                assertEquals(i, e.index());
                restore(v, i, saved);

                // x's first coordinate at p exactly: not canonical (a lazy zero is not accepted)
                byte[] p = c.p().toByteArray();
                for (int b = 0; b < fpBytes; b++) {
                    int from = p.length - 1 - b;
                    v.segment().set(ValueLayout.JAVA_BYTE, at + b, from >= 0 ? p[from] : 0);
                }
                e = assertThrows(InvalidPointException.class, () -> v.check(KEY));
                assertEquals(i, e.index());
                assertEquals(Status.NOT_CANONICAL, e.status());
                restore(v, i, saved);
            }
            v.check(KEY); // all restored

            // two bad points: the lower index is reported, in whichever order the chunks finish
            byte[] s1 = bytesOf(v, 517), s2 = bytesOf(v, 999);
            v.segment().set(ValueLayout.JAVA_BYTE, 999L * v.pointBytes(), (byte) (s2[0] ^ 4));
            v.segment().set(ValueLayout.JAVA_BYTE, 517L * v.pointBytes(), (byte) (s1[0] ^ 4));
            InvalidPointException e = assertThrows(InvalidPointException.class, () -> v.check(KEY));
            assertEquals(517, e.index());
            restore(v, 517, s1);
            restore(v, 999, s2);

            // short vectors (fewer points than a group) and a single point
            for (int n : new int[] {1, 3, 8, 9}) {
                PointVector head = v.slice(0, n);
                head.check(KEY);
                byte[] saved = bytesOf(head, n - 1);
                head.segment().set(ValueLayout.JAVA_BYTE, (long) (n - 1) * head.pointBytes() + 1, (byte) (saved[1] ^ 2));
                e = assertThrows(InvalidPointException.class, () -> head.check(KEY));
                assertEquals(n - 1, e.index());
                restore(head, n - 1, saved);
            }
        }
    }
}
