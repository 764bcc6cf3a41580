package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * Products of optimal ate pairings, prod e(g1[i], g2[i]), by the native library on this thread
 * (one Miller loop shared by all pairs, one final exponentiation; from 32 pairs with G2 points of
 * their own on, parts of their loop run on the native pool's threads too, with the same answer).
 * The value in GT is the one snarkjs's {@code vk_alphabeta_12} and @noble/curves give: a fixed
 * power, coprime to r, of the exact pairing (2u(6u^2 + 3u + 1) for BN254, 3 for BLS12-381), so a
 * product is one exactly when the exact pairings' product is. Points are trusted: check untrusted
 * ones first ({@link PointVector#check}, {@link Codec#decode} with {@link Check#all()}). Any
 * number of threads may call it at once.
 */
public final class Pairing {
    private Pairing() {}

    /**
     * Links the native calls a verification makes (reading points, the pairing check; an MSM
     * shares the first's shape) without making them: the FFM linker generates and loads classes
     * for each call shape on its first use, tens of milliseconds of a process that verifies once,
     * which such a process can have done on another thread while it reads its files. Failures are
     * left to the calls themselves to report.
     */
    public static void link() {
        try {
            NativeLibrary.require();
            cuzk_h.cuzk_points_decode$handle();
            cuzk_h.cuzk_pairing_check_g2$handle();
        } catch (RuntimeException | LinkageError e) {
            // the verification's own calls report what is wrong
        }
    }

    /** Whether prod e(g1[i], g2[i]) = 1; points at infinity contribute 1. */
    public static boolean isOne(List<Point> g1, List<Point> g2) {
        return call(g1, g2, false).one;
    }

    /** {@link #isOne(List, List)} over vectors of native points (G1 and G2 of one curve, as many). */
    public static boolean isOne(PointVector g1, PointVector g2) {
        NativeLibrary.require();
        requirePairs(g1, g2);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment one = a.allocate(ValueLayout.JAVA_INT);
            Checked.check(cuzk_h.cuzk_pairing(g1.curve().id(), g1.segment(), g2.segment(), g1.size(), MemorySegment.NULL, one),
                    "cuzk_pairing");
            return one.get(ValueLayout.JAVA_INT, 0) == 1;
        }
    }

    /**
     * The product as its 12 coefficients over Fp in [0, p): c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
     * c1.c2.c1 of Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), xi = 9 + u (BN254) or 1 + u
     * (BLS12-381): snarkjs's {@code vk_alphabeta_12} flattened. No pairs give one (its
     * coefficients 1, 0, ..., 0 on either curve).
     */
    public static BigInteger[] product(List<Point> g1, List<Point> g2) {
        return call(g1, g2, true).value;
    }

    /**
     * The Miller loop of some pairs, before the final exponentiation: a verifier computes once the
     * loop of the pairs its key fixes and passes it to {@link #isOne(List, List, MillerValue)}
     * with each proof's pairs. Opaque (the native layout of the 12 coefficients); immutable.
     */
    public static final class MillerValue {
        private final Curve curve;
        private final byte[] bytes;

        private MillerValue(Curve curve, byte[] bytes) {
            this.curve = curve;
            this.bytes = bytes;
        }

        public Curve curve() {
            return curve;
        }
    }

    /** The Miller loop of prod e(g1[i], g2[i]) (points of one curve, at least one pair). */
    public static MillerValue millerLoop(List<Point> g1, List<Point> g2) {
        requireLists(g1, g2);
        Validate.isTrue(!g1.isEmpty(), "no pairs");
        Curve curve = firstCurve(g1);
        try (Arena a = Arena.ofConfined()) {
            Vectors v = vectors(a, curve, g1, g2);
            MemorySegment out = a.allocate(12L * curve.fpBytes(), 8);
            Checked.check(cuzk_h.cuzk_miller_loop(curve.id(), v.g1().segment(), v.g2().segment(), g1.size(), out), "cuzk_miller_loop");
            return new MillerValue(curve, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * Whether prod e(g1[i], g2[i]) times the pairings whose Miller loop factor is, is one: one
     * final exponentiation of the pairs' loop times factor. Equal to {@link #isOne(List, List)}
     * over the pairs and factor's pairs together, without their loop.
     */
    public static boolean isOne(List<Point> g1, List<Point> g2, MillerValue factor) {
        Validate.notNull(factor, "factor");
        return check(factor.curve, g1, g2, List.of(), null, factor);
    }

    /**
     * G2 points whose lines (the Miller loop's, for any G1 point) are computed once, for pairs a
     * verifier's key fixes (Groth16: beta, gamma and delta): a prepared pair costs about half of
     * another in {@link #isOne(List, List, List, PreparedG2, MillerValue)}. Immutable; native memory
     * (about 11 KiB a point for BN254, 13 KiB for BLS12-381) freed when this object is unreachable.
     */
    public static final class PreparedG2 {
        private final Curve curve;
        private final int size;
        private final MemorySegment lines;

        private PreparedG2(Curve curve, int size, MemorySegment lines) {
            this.curve = curve;
            this.size = size;
            this.lines = lines;
        }

        public Curve curve() {
            return curve;
        }

        /** The number of points prepared. */
        public int size() {
            return size;
        }
    }

    /** The most prepared points one check takes (the native library's limit). */
    public static final int MAX_PREPARED = 64;

    /**
     * The lines of the G2 points (of one curve, 1 to {@value #MAX_PREPARED}, the most one check
     * takes; points at infinity allowed).
     */
    public static PreparedG2 prepare(List<Point> g2) {
        NativeLibrary.require();
        Validate.isTrue(g2 != null && !g2.isEmpty(), "no G2 points to prepare");
        Validate.isTrue(g2.size() <= MAX_PREPARED, "%d G2 points to prepare: one pairing check takes at most %d prepared points", g2.size(),
                MAX_PREPARED);
        Curve curve = g2.get(0).curve();
        try (Arena a = Arena.ofConfined()) {
            PointVector q = PointVector.allocate(a, curve, Group.G2, g2.size());
            for (int i = 0; i < g2.size(); i++) {
                Validate.isTrue(g2.get(i).group() == Group.G2 && g2.get(i).curve() == curve, "point %d is not a G2 point of %s", i,
                        curve.cliName());
                q.set(i, g2.get(i));
            }
            MemorySegment bytes = a.allocate(ValueLayout.JAVA_LONG);
            Checked.check(cuzk_h.cuzk_g2_prepare(curve.id(), MemorySegment.NULL, 0, MemorySegment.NULL, bytes), "cuzk_g2_prepare");
            long each = bytes.get(ValueLayout.JAVA_LONG, 0);
            bytes.set(ValueLayout.JAVA_LONG, 0, each * g2.size());
            MemorySegment lines = Arena.ofAuto().allocate(each * g2.size(), 8);
            Checked.check(cuzk_h.cuzk_g2_prepare(curve.id(), q.segment(), g2.size(), lines, bytes), "cuzk_g2_prepare");
            return new PreparedG2(curve, g2.size(), lines);
        }
    }

    /**
     * Whether prod e(g1[i], g2[i]) times prod e(g1Fixed[k], fixed's k-th point) times the pairings
     * whose Miller loop factor is (null for none) is one; a g1Fixed point at infinity leaves its
     * pair out. The same answer as {@link #isOne(List, List)} over all the pairs, faster.
     */
    public static boolean isOne(List<Point> g1, List<Point> g2, List<Point> g1Fixed, PreparedG2 fixed, MillerValue factor) {
        Validate.notNull(fixed, "fixed");
        Validate.isTrue(factor == null || factor.curve == fixed.curve, "the factor is of %s, the prepared points of %s",
                factor == null ? "" : factor.curve.cliName(), fixed.curve.cliName());
        return check(fixed.curve, g1, g2, g1Fixed, fixed, factor);
    }

    /**
     * The outcome of {@link #isOneCheckingG2}: whether the product is one (meaningful only when
     * every G2 point is in G2), and the index of the first unprepared pair whose G2 point is not in
     * G2 (-1 when all are).
     */
    public record G2Checked(boolean one, int outsideG2) {}

    /**
     * {@link #isOne(List, List, List, PreparedG2, MillerValue)} (fixed null and g1Fixed empty for no
     * prepared pairs) that also checks that the unprepared pairs' G2 points are in G2, from the
     * points their Miller loops end on, for a few products where a check of its own costs a
     * quarter of a Groth16 verification: so a verifier reads a proof's B without its subgroup
     * check and leaves it to the pairing. The G2 points must be on the twist (checked by
     * {@link Codec#decode} with {@link Check#ON_CURVE}); the G1 points, trusted as for isOne.
     */
    public static G2Checked isOneCheckingG2(List<Point> g1, List<Point> g2, List<Point> g1Fixed, PreparedG2 fixed, MillerValue factor) {
        requireLists(g1, g2);
        Validate.notNull(g1Fixed, "g1Fixed");
        Validate.isTrue(fixed != null || g1Fixed.isEmpty(), "%d G1 points for no prepared G2 points", g1Fixed.size());
        Validate.isTrue(!g1.isEmpty() || fixed != null, "no pairs");
        Curve curve = fixed != null ? fixed.curve : firstCurve(g1);
        Validate.isTrue(factor == null || factor.curve == curve, "the factor is of %s, the pairs of %s",
                factor == null ? "" : factor.curve.cliName(), curve.cliName());
        long[] outside = {-1};
        boolean one = check(curve, g1, g2, g1Fixed, fixed, factor, outside);
        return new G2Checked(one, outside[0] == g1.size() ? -1 : (int) outside[0]);
    }

    /** cuzk_pairing_check over the pairs of curve, the prepared pairs (none for a null fixed) and the factor (null for none). */
    private static boolean check(Curve curve, List<Point> g1, List<Point> g2, List<Point> g1Fixed, PreparedG2 fixed, MillerValue factor) {
        return check(curve, g1, g2, g1Fixed, fixed, factor, null);
    }

    /** check(), with cuzk_pairing_check_g2 where outside is not null (its result in outside[0]). */
    private static boolean check(Curve curve, List<Point> g1, List<Point> g2, List<Point> g1Fixed, PreparedG2 fixed, MillerValue factor,
            long[] outside) {
        requireLists(g1, g2);
        Validate.notNull(g1Fixed, "g1Fixed");
        NativeLibrary.require();
        int nFixed = fixed == null ? 0 : fixed.size;
        Validate.isTrue(g1Fixed.size() == nFixed, "%d G1 points for %d prepared G2 points", g1Fixed.size(), nFixed);
        Validate.isTrue(g1.isEmpty() || firstCurve(g1) == curve, "the pairs are of %s, the %s of %s", g1.isEmpty() ? ""
                : firstCurve(g1).cliName(), fixed == null ? "factor" : "prepared points", curve.cliName());
        try (Arena a = Arena.ofConfined()) {
            Vectors v = vectors(a, curve, g1, g2);
            PointVector pf = PointVector.allocate(a, curve, Group.G1, nFixed);
            for (int k = 0; k < nFixed; k++) {
                Validate.isTrue(g1Fixed.get(k).group() == Group.G1 && g1Fixed.get(k).curve() == curve, "fixed pair %d: not a G1 point of %s",
                        k, curve.cliName());
                pf.set(k, g1Fixed.get(k));
            }
            MemorySegment f = MemorySegment.NULL;
            if (factor != null) {
                f = a.allocate(factor.bytes.length, 8);
                MemorySegment.copy(factor.bytes, 0, f, ValueLayout.JAVA_BYTE, 0, factor.bytes.length);
            }
            MemorySegment one = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment lines = fixed == null ? MemorySegment.NULL : fixed.lines;
            if (outside != null) {
                MemorySegment out = a.allocate(ValueLayout.JAVA_LONG);
                Checked.check(cuzk_h.cuzk_pairing_check_g2(curve.id(), v.g1().segment(), v.g2().segment(), g1.size(), pf.segment(), lines,
                        nFixed, f, one, out), "cuzk_pairing_check_g2");
                outside[0] = out.get(ValueLayout.JAVA_LONG, 0);
            } else {
                Checked.check(cuzk_h.cuzk_pairing_check(curve.id(), v.g1().segment(), v.g2().segment(), g1.size(), pf.segment(), lines,
                        nFixed, f, one), "cuzk_pairing_check");
            }
            java.lang.ref.Reference.reachabilityFence(fixed);
            return one.get(ValueLayout.JAVA_INT, 0) == 1;
        }
    }

    private record Vectors(PointVector g1, PointVector g2) {}

    /** The pairs as native vectors, each pair checked to be a G1 and a G2 point of the curve. */
    private static Vectors vectors(Arena a, Curve curve, List<Point> g1, List<Point> g2) {
        NativeLibrary.require();
        Validate.isTrue(g1.size() == g2.size(), "%d G1 points and %d G2 points: a pairing takes one of each", g1.size(), g2.size());
        PointVector p = PointVector.allocate(a, curve, Group.G1, g1.size());
        PointVector q = PointVector.allocate(a, curve, Group.G2, g2.size());
        for (int i = 0; i < g1.size(); i++) {
            Validate.isTrue(g1.get(i) != null && g2.get(i) != null, "pair %d has a null point", i);
            Validate.isTrue(g1.get(i).group() == Group.G1 && g2.get(i).group() == Group.G2, "pair %d is not a G1 and a G2 point", i);
            Validate.isTrue(g1.get(i).curve() == curve && g2.get(i).curve() == curve, "pair %d is not of %s", i, curve.cliName());
            p.set(i, g1.get(i));
            q.set(i, g2.get(i));
        }
        return new Vectors(p, q);
    }

    private record Result(boolean one, BigInteger[] value) {}

    private static Result call(List<Point> g1, List<Point> g2, boolean value) {
        requireLists(g1, g2);
        Curve curve = g1.isEmpty() ? Curve.BN254 : firstCurve(g1);
        try (Arena a = Arena.ofConfined()) {
            Vectors v = vectors(a, curve, g1, g2);
            PointVector p = v.g1(), q = v.g2();
            int fb = curve.fpBytes();
            MemorySegment out = value ? a.allocate(12L * fb, 8) : MemorySegment.NULL;
            MemorySegment one = a.allocate(ValueLayout.JAVA_INT);
            Checked.check(cuzk_h.cuzk_pairing(curve.id(), p.segment(), q.segment(), g1.size(), out, one), "cuzk_pairing");
            BigInteger[] coefficients = null;
            if (value) {
                coefficients = new BigInteger[12];
                BigInteger rInv = curve.fpRadix().modInverse(curve.p());
                byte[] all = out.toArray(ValueLayout.JAVA_BYTE);
                for (int i = 0; i < 12; i++) {
                    byte[] be = new byte[fb];
                    for (int j = 0; j < fb; j++) {
                        be[fb - 1 - j] = all[i * fb + j];
                    }
                    coefficients[i] = new BigInteger(1, be).multiply(rInv).mod(curve.p());
                }
            }
            return new Result(one.get(ValueLayout.JAVA_INT, 0) == 1, coefficients);
        }
    }

    /** The curve of the first G1 point (pairs are checked to be of one curve later). */
    private static Curve firstCurve(List<Point> g1) {
        return Validate.notNull(g1.get(0), "pair 0 has a null point").curve();
    }

    private static void requireLists(List<Point> g1, List<Point> g2) {
        Validate.notNull(g1, "g1");
        Validate.notNull(g2, "g2");
    }

    private static void requirePairs(PointVector g1, PointVector g2) {
        Validate.notNull(g1, "g1");
        Validate.notNull(g2, "g2");
        Validate.isTrue(g1.group() == Group.G1 && g2.group() == Group.G2, "a pairing takes G1 points and G2 points");
        Validate.isTrue(g1.curve() == g2.curve(), "G1 points of %s and G2 points of %s", g1.curve().cliName(), g2.curve().cliName());
        Validate.isTrue(g1.size() == g2.size(), "%d G1 points and %d G2 points: a pairing takes one of each", g1.size(), g2.size());
    }
}
