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
            MemorySegment src = a.allocate(input.length);
            MemorySegment.copy(MemorySegment.ofArray(input), 0, src, 0, input.length);
            PointVector p = Codec.decodePoints(a, c, Group.G1, e, src, n, pair, Check.all());
            PointVector q = Codec.decodePoints(a, c, Group.G2, e, src.asSlice(g1), n, pair, Check.all());
            return Pairing.isOne(p, q);
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
        Encoding e = Encoding.ethereum(c);
        int g1 = e.pointBytes(c, Group.G1), pair = g1 + e.pointBytes(c, Group.G2);
        int n = v.input().length / pair;
        if (n < 1) {
            return; // the empty product: no pair to take apart
        }
        boolean expected = new BigInteger(v.expected(), 16).equals(BigInteger.ONE);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment src = a.allocate(v.input().length);
            MemorySegment.copy(MemorySegment.ofArray(v.input()), 0, src, 0, v.input().length);
            PointVector p = Codec.decodePoints(a, c, Group.G1, e, src, n, pair, Check.all());
            PointVector q = Codec.decodePoints(a, c, Group.G2, e, src.asSlice(g1), n, pair, Check.all());
            List<Point> rest1 = new java.util.ArrayList<>(), rest2 = new java.util.ArrayList<>();
            for (int i = 1; i < n; i++) {
                rest1.add(p.get(i));
                rest2.add(q.get(i));
            }
            Pairing.MillerValue first = Pairing.millerLoop(List.of(p.get(0)), List.of(q.get(0)));
            assertEquals(expected, Pairing.isOne(rest1, rest2, first), v.name());
        }
    }

    /** A factor that is no Miller loop value (coefficients not below p) is refused with a clear message. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void aFactorAbovePIsRefused(Curve c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment factor = a.allocate(12L * c.fpBytes(), 8).fill((byte) 0xff);
            MemorySegment one = a.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            int status = io.cuzk.internal.ffi.cuzk_h.cuzk_pairing_check(c.id(), MemorySegment.NULL, MemorySegment.NULL, 0, factor, one);
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
