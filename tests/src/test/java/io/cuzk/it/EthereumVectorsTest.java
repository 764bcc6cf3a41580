package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Backend;
import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.InvalidPointException;
import io.cuzk.Point;
import io.cuzk.Points;
import io.cuzk.Status;
import io.cuzk.cli.EncodedMsm;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The published precompile vectors (go-ethereum's and the EIPs repository's, see
 * vectors/SOURCES.md): EIP-2537 G1/G2 MSM with their failure cases, and EIP-196 BN254 scalar
 * multiplication and addition, run through the same code as {@code cuzk msm}.
 */
class EthereumVectorsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();

    record Vector(String file, String name, byte[] input, String expected, String error) {
        @Override
        public String toString() {
            return file + ": " + name;
        }
    }

    static List<Vector> load(String file) {
        try (InputStream in = EthereumVectorsTest.class.getResourceAsStream("/vectors/" + file)) {
            assertTrue(in != null, "missing vector file " + file);
            List<Vector> out = new ArrayList<>();
            for (JsonNode n : JSON.readTree(in)) {
                out.add(new Vector(file, n.get("Name").asText(), HEX.parseHex(n.get("Input").asText()),
                        n.has("Expected") ? n.get("Expected").asText() : null,
                        n.has("ExpectedError") ? n.get("ExpectedError").asText() : null));
            }
            assertFalse(out.isEmpty(), file);
            return out;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> msmSuccess() {
        return Stream.of(
                        load("blsG1MultiExp.subset.json").stream().map(v -> Arguments.of(Group.G1, v)),
                        load("blsG1MultiExp.erigon-edgecases.json").stream().map(v -> Arguments.of(Group.G1, v)),
                        load("blsG2MultiExp.subset.json").stream().map(v -> Arguments.of(Group.G2, v)))
                .flatMap(s -> s);
    }

    static Stream<Arguments> msmFailure() {
        return Stream.of(
                        load("fail-blsG1MultiExp.json").stream().map(v -> Arguments.of(Group.G1, v)),
                        load("fail-msm_G1_bls.json").stream().map(v -> Arguments.of(Group.G1, v)),
                        load("fail-blsG2MultiExp.json").stream().map(v -> Arguments.of(Group.G2, v)),
                        load("fail-msm_G2_bls.json").stream().map(v -> Arguments.of(Group.G2, v)))
                .flatMap(s -> s);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("msmSuccess")
    void eip2537MsmVectors(Group g, Vector v) {
        byte[] out = EncodedMsm.sum(Curve.BLS12_381, g, Encoding.EIP2537, v.input, Backend.cpu());
        assertEquals(v.expected, HEX.formatHex(out));
    }

    /** Each failure must be refused for the vector's reason: length, encoding, curve or subgroup. */
    @ParameterizedTest(name = "{1}")
    @MethodSource("msmFailure")
    void eip2537MsmFailureVectors(Group g, Vector v) {
        String err = v.error.toLowerCase(Locale.ROOT);
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> EncodedMsm.sum(Curve.BLS12_381, g, Encoding.EIP2537, v.input, Backend.cpu()));
        if (err.contains("invalid input length")) {
            assertTrue(e.getMessage().startsWith("invalid input length"), e.getMessage());
            return;
        }
        InvalidPointException p = assertInstanceOf(e);
        Status expected;
        if (err.contains("modulus") || err.contains("fp.element") || err.contains("top bytes")) {
            expected = Status.NOT_CANONICAL;
        } else if (err.contains("not on curve")) {
            expected = Status.NOT_ON_CURVE;
        } else if (err.contains("subgroup")) {
            expected = Status.NOT_IN_SUBGROUP;
        } else {
            throw new AssertionError("unclassified expected error: " + v.error);
        }
        assertEquals(expected, p.status(), v.error + " / " + p.getMessage());
        assertTrue(p.getMessage().startsWith("pair " + p.index() + " of "), p.getMessage());
    }

    static InvalidPointException assertInstanceOf(RuntimeException e) {
        assertTrue(e instanceof InvalidPointException, "expected a point failure, got " + e);
        return (InvalidPointException) e;
    }

    static Stream<Vector> bn256ScalarMul() {
        return load("bn256ScalarMul.json").stream();
    }

    /**
     * The same vectors through {@link Points#multiply(Point, BigInteger)}, which in BN254's G1
     * splits the scalar by the curve's endomorphism (GLV), not through a one-pair MSM; and
     * {@link Point#endomorphism()} is [lambda] of each point.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bn256ScalarMul")
    void eip196ScalarMulVectorsByPointMultiplication(Vector v) {
        byte[] in = Arrays.copyOf(v.input, 96);
        Point p = Codec.decode(Curve.BN254, Group.G1, Encoding.EIP196, Arrays.copyOf(in, 64), EnumSet.allOf(Check.class));
        BigInteger k = new BigInteger(1, Arrays.copyOfRange(in, 64, 96));
        assertEquals(v.expected, HEX.formatHex(Points.multiply(p, k).encode(Encoding.EIP196)));
        assertEquals(Points.multiply(p, Curve.BN254.g1Lambda()), p.endomorphism());
    }

    static Stream<Vector> bn256Add() {
        return load("bn256Add.json").stream();
    }

    /** EIP-196 scalar multiplication is a one-pair MSM over (point, scalar). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bn256ScalarMul")
    void eip196ScalarMulVectors(Vector v) {
        byte[] out = EncodedMsm.sum(Curve.BN254, Group.G1, Encoding.EIP196, v.input, Backend.cpu());
        assertEquals(v.expected, HEX.formatHex(out));
    }

    /**
     * EIP-196 addition is a two-pair MSM with scalars 1. The precompile pads short input with zeros
     * and ignores bytes past 128, so the input is normalised to 128 bytes first.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bn256Add")
    void eip196AddVectors(Vector v) {
        byte[] in = Arrays.copyOf(v.input, 128);
        byte[] pairs = new byte[2 * 96];
        System.arraycopy(in, 0, pairs, 0, 64);
        pairs[95] = 1;
        System.arraycopy(in, 64, pairs, 96, 64);
        pairs[191] = 1;
        byte[] out = EncodedMsm.sum(Curve.BN254, Group.G1, Encoding.EIP196, pairs, Backend.cpu());
        assertEquals(v.expected, HEX.formatHex(out));
    }
}
