package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.InvalidPointException;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.ScalarVector;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * What {@code cuzk msm} computes, in the shape of Ethereum's MSM precompiles: the sum of
 * concatenated (point, scalar) pairs, every point checked (canonical, on the curve, in the
 * subgroup). Public for the tests that check it against published vectors.
 */
public final class EncodedMsm {
    private EncodedMsm() {}

    /**
     * The encoded sum of the pairs in {@code input}. Throws {@link InvalidInputException} for a
     * length that is not a positive multiple of a pair, and {@link InvalidPointException} (its
     * message naming the pair) for a point that fails a check.
     */
    public static byte[] sum(Curve curve, Group group, Encoding encoding, byte[] input, Backend backend) {
        if (!encoding.supports(curve)) {
            throw new IllegalArgumentException(encoding + " is not defined for " + curve.cliName());
        }
        int pointBytes = encoding.pointBytes(curve, group);
        int pairBytes = pointBytes + encoding.scalarBytes();
        if (input.length == 0 || input.length % pairBytes != 0) {
            throw new InvalidInputException("invalid input length: " + input.length + " bytes is not a positive multiple of the "
                    + pairBytes + "-byte (" + curve.cliName() + " " + group + " point, scalar) pair");
        }
        long n = input.length / pairBytes;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(input.length, 8);
            MemorySegment.copy(MemorySegment.ofArray(input), 0, src, 0, input.length);
            PointVector points;
            try {
                points = Codec.decodePoints(arena, curve, group, encoding, src, n, pairBytes, Check.all());
            } catch (InvalidPointException e) {
                throw new InvalidPointException(e.status(), e.index(), "pair " + e.index() + " of " + n + ": " + e.reason(),
                        e.nativeMessage());
            }
            ScalarVector scalars = Codec.decodeScalars(arena, curve, encoding, src.asSlice(pointBytes), n, pairBytes);
            Point sum = backend.msm(points, scalars);
            return sum.encode(encoding);
        }
    }

    static byte[] readHex(InputStream in) {
        String text;
        try {
            text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("reading stdin", e);
        }
        StringBuilder digits = new StringBuilder(text.length());
        for (String token : text.trim().split("\\s+")) {
            digits.append(token.startsWith("0x") || token.startsWith("0X") ? token.substring(2) : token);
        }
        String hex = digits.toString();
        if (hex.length() % 2 != 0) {
            throw new InvalidInputException("the hex input has an odd number of digits (" + hex.length() + ")");
        }
        for (int i = 0; i < hex.length(); i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                throw new InvalidInputException("the input is not hex: '" + hex.charAt(i) + "' at digit " + i);
            }
        }
        return HexFormat.of().parseHex(hex);
    }
}
