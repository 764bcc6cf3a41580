package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.InvalidPointException;
import io.cuzk.Pairing;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.Status;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The native pairings against independent references: the Ethereum precompiles' published vectors
 * (EIP-197's BN254 pairing check at 0x08, EIP-2537's BLS12-381 pairing check, with its failure
 * cases), @noble/curves's values of e(P, Q) coefficient for coefficient, and the properties that
 * define a pairing (bilinearity, non-degeneracy, infinity giving one).
 */
class PairingTest {
    static Stream<EthereumVectorsTest.Vector> checks() {
        return Stream.concat(EthereumVectorsTest.load("bn256Pairing.json").stream(), EthereumVectorsTest.load("blsPairing.json").stream());
    }

    static Stream<EthereumVectorsTest.Vector> failures() {
        return EthereumVectorsTest.load("fail-blsPairing.json").stream();
    }

    /** A vector's pairs, decoded with every check (none for an empty input). */
    record Pairs(PointVector p, PointVector q, int n) {
        List<Point> g1() {
            return java.util.stream.IntStream.range(0, n).mapToObj(p::get).toList();
        }

        List<Point> g2() {
            return java.util.stream.IntStream.range(0, n).mapToObj(q::get).toList();
        }
    }

    static Pairs decode(Arena a, Curve c, byte[] input) {
        Encoding e = Encoding.ethereum(c);
        int g1 = e.pointBytes(c, Group.G1), pair = g1 + e.pointBytes(c, Group.G2);
        int n = input.length / pair;
        if (n == 0) {
            return new Pairs(null, null, 0);
        }
        MemorySegment src = a.allocate(input.length);
        MemorySegment.copy(MemorySegment.ofArray(input), 0, src, 0, input.length);
        return new Pairs(Codec.decodePoints(a, c, Group.G1, e, src, n, pair, Check.all()),
                Codec.decodePoints(a, c, Group.G2, e, src.asSlice(g1), n, pair, Check.all()), n);
    }

    /** The precompile's answer: the product of the pairs' pairings is one, decoded with every check. */
    static boolean pairingCheck(Curve c, byte[] input) {
        Encoding e = Encoding.ethereum(c);
        int g1 = e.pointBytes(c, Group.G1), pair = g1 + e.pointBytes(c, Group.G2);
        if (input.length % pair != 0 || (input.length == 0 && c == Curve.BLS12_381)) { // EIP-2537 takes one pair at least
            throw new IllegalArgumentException("invalid input length: " + input.length + " bytes are not whole " + pair + "-byte pairs");
        }
        int n = input.length / pair;
        if (n == 0) {
            return Pairing.isOne(List.of(), List.of());
        }
        try (Arena a = Arena.ofConfined()) {
            Pairs pairs = decode(a, c, input);
            return Pairing.isOne(pairs.p(), pairs.q());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("checks")
    void ethereumPairingCheckVectors(EthereumVectorsTest.Vector v) {
        Curve c = v.file().startsWith("bn256") ? Curve.BN254 : Curve.BLS12_381;
        BigInteger expected = new BigInteger(v.expected(), 16);
        assertTrue(expected.equals(BigInteger.ZERO) || expected.equals(BigInteger.ONE), v.expected());
        assertEquals(expected.equals(BigInteger.ONE), pairingCheck(c, v.input()), v.name());
    }

    /**
     * The same vectors with their first pair's Miller loop computed apart and passed as the factor
     * of the rest (what a verifier does with the pair its key fixes): the precompile's answer.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("checks")
    void aMillerLoopFactorStandsForItsPairs(EthereumVectorsTest.Vector v) {
        Curve c = v.file().startsWith("bn256") ? Curve.BN254 : Curve.BLS12_381;
        boolean expected = new BigInteger(v.expected(), 16).equals(BigInteger.ONE);
        try (Arena a = Arena.ofConfined()) {
            Pairs pairs = decode(a, c, v.input());
            int n = pairs.n();
            if (n < 1) {
                return; // the empty product: no pair to take apart
            }
            List<Point> all1 = pairs.g1(), all2 = pairs.g2();
            Pairing.MillerValue first = Pairing.millerLoop(all1.subList(0, 1), all2.subList(0, 1));
            assertEquals(expected, Pairing.isOne(all1.subList(1, n), all2.subList(1, n), first), v.name());
        }
    }

    /**
     * The same vectors with the G2 points of all pairs but the first prepared (their lines computed
     * apart, as a verifier does for its key's points), then with every pair prepared, then with
     * the first pair as a Miller loop factor and the rest prepared: the precompile's answer each
     * time.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("checks")
    void preparedPairsStandForTheirPairs(EthereumVectorsTest.Vector v) {
        Curve c = v.file().startsWith("bn256") ? Curve.BN254 : Curve.BLS12_381;
        boolean expected = new BigInteger(v.expected(), 16).equals(BigInteger.ONE);
        try (Arena a = Arena.ofConfined()) {
            Pairs pairs = decode(a, c, v.input());
            int n = pairs.n();
            if (n < 2) {
                return; // nothing to split (the single pairs are in the vectors with several)
            }
            List<Point> all1 = pairs.g1(), all2 = pairs.g2();
            Pairing.PreparedG2 rest = Pairing.prepare(all2.subList(1, n));
            assertEquals(expected, Pairing.isOne(all1.subList(0, 1), all2.subList(0, 1), all1.subList(1, n), rest, null), v.name());
            assertEquals(expected, Pairing.isOne(List.of(), List.of(), all1, Pairing.prepare(all2), null), v.name() + ", all prepared");
            Pairing.MillerValue first = Pairing.millerLoop(all1.subList(0, 1), all2.subList(0, 1));
            assertEquals(expected, Pairing.isOne(List.of(), List.of(), all1.subList(1, n), rest, first), v.name() + ", with a factor");
        }
    }

    /** A prepared pair whose G1 point is at infinity is left out, as is one whose G2 point is. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void preparedPairsAtInfinityContributeOne(Curve c) {
        Point p = Points.multiply(Points.generator(c, Group.G1), BigInteger.valueOf(5));
        Point q = Points.multiply(Points.generator(c, Group.G2), BigInteger.valueOf(7));
        Point g1Inf = Point.infinity(c, Group.G1), g2Inf = Point.infinity(c, Group.G2);
        // e(5 G1, 7 G2) e(-35 G1, G2) = 1, with a prepared pair of each kind of infinity beside it
        Point minus35 = Points.multiply(Points.generator(c, Group.G1), BigInteger.valueOf(35)).negated();
        Pairing.PreparedG2 fixed = Pairing.prepare(List.of(Points.generator(c, Group.G2), g2Inf, q));
        assertTrue(Pairing.isOne(List.of(p), List.of(q), List.of(minus35, p, g1Inf), fixed, null));
        assertFalse(Pairing.isOne(List.of(p), List.of(q), List.of(minus35, p, p), fixed, null), "the third pair counts when its G1 point does");
        // at most 64 prepared points: more are refused when prepared, not at their first check
        List<Point> many = java.util.Collections.nCopies(Pairing.MAX_PREPARED + 1, q);
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> Pairing.prepare(many));
        assertTrue(tooMany.getMessage().contains("65 G2 points to prepare: one pairing check takes at most 64"), tooMany.getMessage());
        Pairing.PreparedG2 most = Pairing.prepare(many.subList(0, Pairing.MAX_PREPARED));
        List<Point> g1s = new java.util.ArrayList<>(java.util.Collections.nCopies(Pairing.MAX_PREPARED, g1Inf));
        g1s.set(63, minus35);
        assertTrue(Pairing.isOne(List.of(p), List.of(q), g1s, most, null) == false, "e(5, 7) e(-35, 7) is not one");
        g1s.set(63, p.negated());
        assertTrue(Pairing.isOne(List.of(p), List.of(q), g1s, most, null), "e(5, 7) e(-5, 7) is one, through the 64th prepared point");
    }

    /** Lines the library did not prepare (zeros; a coefficient not below p) are refused with a clear message. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void linesNotFromPrepareAreRefused(Curve c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment bytes = a.allocate(java.lang.foreign.ValueLayout.JAVA_LONG);
            assertEquals(Status.OK, Status.of(io.cuzk.internal.ffi.cuzk_h.cuzk_g2_prepare(c.id(), MemorySegment.NULL, 0, MemorySegment.NULL,
                    bytes)));
            long each = bytes.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
            PointVector q = PointVector.allocate(a, c, Group.G2, 1);
            q.set(0, Points.generator(c, Group.G2));
            PointVector p = PointVector.allocate(a, c, Group.G1, 1);
            p.set(0, Points.generator(c, Group.G1));
            MemorySegment lines = a.allocate(each, 8);
            MemorySegment one = a.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            int zeros = io.cuzk.internal.ffi.cuzk_h.cuzk_pairing_check(c.id(), MemorySegment.NULL, MemorySegment.NULL, 0,
                    p.segment(), lines, 1, MemorySegment.NULL, one);
            assertEquals(Status.INVALID_ARGUMENT, Status.of(zeros));
            assertTrue(io.cuzk.internal.Checked.lastError().contains("not lines from cuzk_g2_prepare"), io.cuzk.internal.Checked.lastError());
            assertEquals(Status.OK, Status.of(io.cuzk.internal.ffi.cuzk_h.cuzk_g2_prepare(c.id(), q.segment(), 1, lines, bytes)));
            assertEquals(Status.OK, Status.of(io.cuzk.internal.ffi.cuzk_h.cuzk_pairing_check(c.id(), MemorySegment.NULL,
                    MemorySegment.NULL, 0, p.segment(), lines, 1, MemorySegment.NULL, one)));
            assertEquals(0, one.get(java.lang.foreign.ValueLayout.JAVA_INT, 0), "e(G1, G2) is not one");
            lines.asSlice(each - c.fpBytes(), c.fpBytes()).fill((byte) 0xff); // the last coefficient above p
            int corrupt = io.cuzk.internal.ffi.cuzk_h.cuzk_pairing_check(c.id(), MemorySegment.NULL, MemorySegment.NULL, 0,
                    p.segment(), lines, 1, MemorySegment.NULL, one);
            assertEquals(Status.INVALID_ARGUMENT, Status.of(corrupt));
            assertTrue(io.cuzk.internal.Checked.lastError().contains("a coefficient is not below p"), io.cuzk.internal.Checked.lastError());
            Curve other = c == Curve.BN254 ? Curve.BLS12_381 : Curve.BN254;
            Pairing.PreparedG2 prepared = Pairing.prepare(List.of(Points.generator(c, Group.G2)));
            IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                    () -> Pairing.isOne(List.of(), List.of(), List.of(Points.generator(other, Group.G1)), prepared, null));
            assertTrue(wrong.getMessage().contains("fixed pair 0: not a G1 point of"), wrong.getMessage());
        }
    }

    /** A factor that is no Miller loop value (coefficients not below p) is refused with a clear message. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void aFactorAbovePIsRefused(Curve c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment factor = a.allocate(12L * c.fpBytes(), 8).fill((byte) 0xff);
            MemorySegment one = a.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            int status = io.cuzk.internal.ffi.cuzk_h.cuzk_pairing_check(c.id(), MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL,
                    MemorySegment.NULL, 0, factor, one);
            assertEquals(Status.INVALID_ARGUMENT, Status.of(status));
            String message = io.cuzk.internal.Checked.lastError();
            assertTrue(message.contains("factor: a coefficient is not below p"), message);
        }
    }

    /** Each refused for the vector's reason: length, encoding, curve or subgroup (of G1 or G2). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void eip2537PairingFailureVectors(EthereumVectorsTest.Vector v) {
        String err = v.error().toLowerCase(Locale.ROOT);
        RuntimeException e = assertThrows(RuntimeException.class, () -> pairingCheck(Curve.BLS12_381, v.input()));
        if (err.contains("invalid input length")) {
            assertTrue(e.getMessage().startsWith("invalid input length"), e.getMessage());
            return;
        }
        assertTrue(e instanceof InvalidPointException, "expected a point failure, got " + e);
        Status expected = err.contains("subgroup") ? Status.NOT_IN_SUBGROUP : err.contains("not on curve") ? Status.NOT_ON_CURVE
                : Status.NOT_CANONICAL;
        assertEquals(expected, ((InvalidPointException) e).status(), v.error() + " / " + e.getMessage());
    }

    /** e(P, Q) coefficient for coefficient as @noble/curves computes it (the same normalisation as snarkjs). */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void valuesEqualNoble(Curve c) throws Exception {
        JsonNode cases = new ObjectMapper().readTree(Node.run("pairing_reference.mjs", c == Curve.BN254 ? "bn254" : "bls12-381", "7", "4"))
                .get("cases");
        assertEquals(4, cases.size());
        for (JsonNode k : cases) {
            Point p = Point.ofCoordinates(c, Group.G1, big(k.get("g1"), 0), big(k.get("g1"), 1));
            Point q = Point.ofCoordinates(c, Group.G2, big(k.get("g2"), 0), big(k.get("g2"), 1), big(k.get("g2"), 2), big(k.get("g2"), 3));
            BigInteger[] expected = new BigInteger[12];
            for (int i = 0; i < 12; i++) {
                expected[i] = big(k.get("pairing"), i);
            }
            assertArrayEquals(expected, Pairing.product(List.of(p), List.of(q)), k.toString());
        }
    }

    /**
     * Products of many pairs (from 8 on the loop keeps their points affine, below projective; from
     * 32 on the pairs are split over the native threads, the point at infinity opening the second
     * part for 32) equal e(G1, G2) to the sum of their exponents, computed by one pair's loop (whose values
     * equal @noble/curves', above); with a pair at infinity among them and a prepared pair beside.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void manyPairsEqualOnePairOfTheirExponent(Curve c) {
        Random rnd = new Random(11 + c.ordinal());
        Point g = Points.generator(c, Group.G1), h = Points.generator(c, Group.G2);
        for (int n : new int[] {7, 8, 9, 24, 32, 33, 64}) { // from 32 on split over the native threads
            List<Point> g1 = new java.util.ArrayList<>(), g2 = new java.util.ArrayList<>();
            BigInteger sum = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                BigInteger a = new BigInteger(250, rnd), b = new BigInteger(250, rnd);
                if (i == n / 2) { // left out: its G1 point at infinity
                    g1.add(Point.infinity(c, Group.G1));
                } else {
                    g1.add(Points.multiply(g, a));
                    sum = sum.add(a.multiply(b));
                }
                g2.add(Points.multiply(h, b));
            }
            BigInteger e = sum.mod(c.r());
            assertArrayEquals(Pairing.product(List.of(Points.multiply(g, e)), List.of(h)), Pairing.product(g1, g2), n + " pairs");
            // with e(-eG1, G2) prepared the product is one; with e(-(e+1)G1, G2) it is not
            Pairing.PreparedG2 fixed = Pairing.prepare(List.of(h));
            assertTrue(Pairing.isOne(g1, g2, List.of(Points.multiply(g, e).negated()), fixed, null), n + " pairs and a prepared one");
            assertFalse(Pairing.isOne(g1, g2, List.of(Points.multiply(g, e.add(BigInteger.ONE)).negated()), fixed, null),
                    n + " pairs, off by one");
        }
    }

    /**
     * BLS12-381's points (0, 2) and (0, -2) have order 3 (none of BN254's does: its curve has
     * prime order), so they pair to one with any G2 point: a product with such a pair equals the
     * product without it. From 8 pairs on the loop runs each pair on a copy of the twist scaled
     * by its G1 point's x/y, which x = 0 rules out: that pair keeps the unscaled lines, beside
     * scaled ones.
     */
    @org.junit.jupiter.api.Test
    void aG1PointWithXZeroKeepsItsPairOne() {
        Curve c = Curve.BLS12_381;
        Random rnd = new Random(31);
        Point g = Points.generator(c, Group.G1), h = Points.generator(c, Group.G2);
        for (int n : new int[] {3, 7, 8, 20, 40}) { // projective below 8 pairs, affine from 8, split over threads from 32
            List<Point> g1 = new java.util.ArrayList<>(), g2 = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                g1.add(Points.multiply(g, new BigInteger(250, rnd)));
                g2.add(Points.multiply(h, new BigInteger(250, rnd)));
            }
            BigInteger[] without = Pairing.product(g1, g2);
            for (BigInteger y : new BigInteger[] {BigInteger.TWO, c.p().subtract(BigInteger.TWO)}) {
                List<Point> p = new java.util.ArrayList<>(g1), q = new java.util.ArrayList<>(g2);
                p.add(n / 2, Point.ofCoordinates(c, Group.G1, BigInteger.ZERO, y));
                q.add(n / 2, Points.multiply(h, new BigInteger(250, rnd)));
                assertArrayEquals(without, Pairing.product(p, q), n + " pairs and (0, " + y + ")");
            }
        }
    }

    static BigInteger big(JsonNode a, int i) {
        return new BigInteger(a.get(i).asText());
    }

    /** e(aP, bQ) = e(abP, Q) = e(P, abQ) = e(P, Q)^(ab); e(P, Q) != 1; infinity on either side gives 1. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void bilinearAndNonDegenerate(Curve c) {
        Random rnd = new Random(42 + c.ordinal());
        Point g = Points.generator(c, Group.G1), h = Points.generator(c, Group.G2);
        for (int t = 0; t < 3; t++) {
            BigInteger a = new BigInteger(250, rnd), b = new BigInteger(250, rnd);
            BigInteger ab = a.multiply(b).mod(c.r());
            Point ap = Points.multiply(g, a), bq = Points.multiply(h, b);
            BigInteger[] e1 = Pairing.product(List.of(ap), List.of(bq));
            assertArrayEquals(e1, Pairing.product(List.of(Points.multiply(g, ab)), List.of(h)));
            assertArrayEquals(e1, Pairing.product(List.of(g), List.of(Points.multiply(h, ab))));
            // the product with e(-abP, Q) is one, and with e(-(ab+1)P, Q) it is not
            assertTrue(Pairing.isOne(List.of(ap, Points.negate(Points.multiply(g, ab))), List.of(bq, h)));
            assertFalse(Pairing.isOne(List.of(ap, Points.negate(Points.multiply(g, ab.add(BigInteger.ONE)))), List.of(bq, h)));
        }
        assertFalse(Pairing.isOne(List.of(g), List.of(h)), "e(G1, G2) != 1");
        assertTrue(Pairing.isOne(List.of(Point.infinity(c, Group.G1)), List.of(h)));
        assertTrue(Pairing.isOne(List.of(g), List.of(Point.infinity(c, Group.G2))));
        BigInteger[] one = Pairing.product(List.of(), List.of());
        assertEquals(BigInteger.ONE, one[0]);
        for (int i = 1; i < 12; i++) {
            assertEquals(BigInteger.ZERO, one[i]);
        }
    }
}
