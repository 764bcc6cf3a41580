package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The encodings against their published definitions, using the standard generators as known points. */
class CodecTest {
    static final HexFormat HEX = HexFormat.of();

    /** BN254 G1 generator (1, 2) and G2 generator from EIP-197, in EIP-196/197 byte order. */
    @Test
    void bn254GeneratorsInEip196Layout() {
        byte[] g1 = Points.generator(Curve.BN254, Group.G1).encode(Encoding.EIP196);
        assertEquals("0".repeat(63) + "1" + "0".repeat(63) + "2", HEX.formatHex(g1));
        byte[] g2 = Points.generator(Curve.BN254, Group.G2).encode(Encoding.EIP196);
        // EIP-197 lists the G2 generator as x = (x_im, x_re), y = (y_im, y_re), imaginary part first
        String expected = "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
                + "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
                + "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
                + "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa";
        assertEquals(expected, HEX.formatHex(g2));
    }

    @Test
    void bls12381GeneratorsInEip2537Layout() {
        byte[] g1 = Points.generator(Curve.BLS12_381, Group.G1).encode(Encoding.EIP2537);
        assertEquals(128, g1.length);
        assertEquals("0".repeat(32) + "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
                + "0".repeat(32) + "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
                HEX.formatHex(g1));
        byte[] g2 = Points.generator(Curve.BLS12_381, Group.G2).encode(Encoding.EIP2537);
        assertEquals(256, g2.length);
        assertTrue(HEX.formatHex(g2).startsWith("0".repeat(32) + "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d177"));
    }

    @Test
    void roundTripsThroughEveryEncoding() {
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                Point p = Points.multiply(Points.generator(c, g), BigInteger.valueOf(123456789));
                for (Encoding e : Encoding.values()) {
                    if (!e.supports(c)) {
                        continue;
                    }
                    byte[] bytes = p.encode(e);
                    assertEquals(e.pointBytes(c, g), bytes.length);
                    assertEquals(p, Codec.decode(c, g, e, bytes, Check.all()), c + " " + g + " " + e);
                    assertArrayEquals(new byte[bytes.length], Point.infinity(c, g).encode(e), "infinity is zeros");
                    assertTrue(Codec.decode(c, g, e, new byte[bytes.length], Check.all()).isInfinity());
                }
                // the coordinates as BigIntegers are those of the Ethereum encoding
                BigInteger[] xy = p.coordinates();
                assertEquals(p, Point.ofCoordinates(c, g, xy));
            }
        }
    }

    @Test
    void rejectsCoordinatesAtOrAboveP() {
        Curve c = Curve.BN254;
        byte[] enc = new byte[64];
        byte[] pBytes = c.p().toByteArray(); // 32 bytes: p < 2^254
        System.arraycopy(pBytes, pBytes.length - 32, enc, 0, 32);
        enc[63] = 2;
        InvalidPointException e = assertThrows(InvalidPointException.class, () -> Codec.decode(c, Group.G1, Encoding.EIP196, enc, Check.all()));
        assertEquals(Status.NOT_CANONICAL, e.status());
    }

    @Test
    void rejectsNonZeroPaddingInEip2537() {
        byte[] g1 = Points.generator(Curve.BLS12_381, Group.G1).encode(Encoding.EIP2537);
        g1[0] = 1;
        InvalidPointException e = assertThrows(InvalidPointException.class,
                () -> Codec.decode(Curve.BLS12_381, Group.G1, Encoding.EIP2537, g1, Check.all()));
        assertEquals(Status.NOT_CANONICAL, e.status());
    }

    /** (1, y) with y^2 = 1 + 4 has no solution check: x = 0 gives y^2 = 4, so (0, 2) is on the BLS curve but not in G1. */
    @Test
    void rejectsPointsOutsideTheSubgroup() {
        Point outside = Point.ofCoordinates(Curve.BLS12_381, Group.G1, BigInteger.ZERO, BigInteger.TWO);
        byte[] enc = outside.encode(Encoding.EIP2537);
        InvalidPointException e = assertThrows(InvalidPointException.class,
                () -> Codec.decode(Curve.BLS12_381, Group.G1, Encoding.EIP2537, enc, Check.all()));
        assertEquals(Status.NOT_IN_SUBGROUP, e.status());
        // on the curve it is, so the on-curve check alone accepts it
        assertEquals(outside, Codec.decode(Curve.BLS12_381, Group.G1, Encoding.EIP2537, enc, java.util.EnumSet.of(Check.ON_CURVE)));
    }

    @Test
    void scalarsReverseTheirBytes() {
        try (Arena a = Arena.ofConfined()) {
            byte[] be = new byte[64];
            for (int i = 0; i < 64; i++) {
                be[i] = (byte) i;
            }
            MemorySegment src = a.allocate(64);
            MemorySegment.copy(MemorySegment.ofArray(be), 0, src, 0, 64);
            ScalarVector s = Codec.decodeScalars(a, Curve.BN254, Encoding.EIP196, src, 2, 0);
            assertEquals(new BigInteger(1, java.util.Arrays.copyOfRange(be, 32, 64)), s.get(1));
            MemorySegment back = a.allocate(64);
            Codec.encodeScalars(s, Encoding.EIP196, back);
            assertArrayEquals(be, back.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * Counts and strides whose (count - 1) * stride + size overflows long are refused before any
     * native call: 2^62 points every 64 bytes wrapped to a bound of 0 bytes, which 64 bytes passed,
     * and the codec read far past its source (SIGSEGV).
     */
    @Test
    void countsAndStridesThatOverflowAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(64);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Codec.decodePoints(arena, Curve.BN254, Group.G1, Encoding.EIP196, src, 1L << 62, 64, Set.of()));
            assertTrue(e.getMessage().contains("cannot hold 4611686018427387904 points"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Codec.decodeScalars(arena, Curve.BN254, Encoding.EIP196, src, 1L << 62, 32));
            assertThrows(IllegalArgumentException.class,
                    () -> Codec.decodePoints(arena, Curve.BN254, Group.G1, Encoding.EIP196, src, 2, Long.MAX_VALUE, Set.of()));
            PointVector two = PointVector.allocate(arena, Curve.BN254, Group.G1, 2);
            assertThrows(IndexOutOfBoundsException.class, () -> two.slice(1L << 58, 1)); // 2^58 * 64 wraps to 0
            ScalarVector s = ScalarVector.allocate(arena, Curve.BN254, 2, ScalarForm.CANONICAL);
            assertThrows(IndexOutOfBoundsException.class, () -> s.slice(1L << 59, 1));
        }
    }
}
