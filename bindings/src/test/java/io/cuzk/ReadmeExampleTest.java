package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The README's API example, kept compiling and correct here. */
class ReadmeExampleTest {
    @Test
    void readmeExample() {
        // points as users hold them: here 1·G, 2·G, 3·G in EIP-2537 encoding (128 bytes each)
        Point g = Points.generator(Curve.BLS12_381, Group.G1);
        byte[] encoded = new byte[3 * 128];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(Points.multiply(g, BigInteger.valueOf(i + 1)).encode(Encoding.EIP2537), 0, encoded, 128 * i, 128);
        }

        // --- README example begins
        try (Arena arena = Arena.ofConfined()) {
            // untrusted points: decode with every check (canonical, on the curve, in the subgroup)
            MemorySegment src = arena.allocate(encoded.length);
            MemorySegment.copy(MemorySegment.ofArray(encoded), 0, src, 0, encoded.length);
            PointVector bases = Codec.decodePoints(arena, Curve.BLS12_381, Group.G1, Encoding.EIP2537, src);

            ScalarVector scalars = ScalarVector.allocate(arena, Curve.BLS12_381, bases.size(), ScalarForm.CANONICAL);
            for (long i = 0; i < scalars.size(); i++) {
                scalars.set(i, BigInteger.valueOf(10 + i));
            }
            Point sum = Backend.cpu().msm(bases, scalars); // all hardware threads
            byte[] result = sum.encode(Encoding.EIP2537);

            ScalarVector poly = ScalarVector.allocate(arena, Curve.BN254, 1 << 16, ScalarForm.MONTGOMERY);
            poly.set(1, BigInteger.ONE); // the polynomial x
            Backend.cpu(2).ntt(poly, NttKind.FORWARD); // in place, natural order: x at every 2^16-th root of unity
            // --- README example ends

            // 10·1G + 11·2G + 12·3G = 68·G
            assertEquals(Points.multiply(g, BigInteger.valueOf(68)), sum);
            assertEquals(128, result.length);
            assertEquals(BigInteger.ONE, poly.get(0));
        }
    }
}
