package io.cuzk.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.InvalidPointException;
import io.cuzk.PointVector;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * The point and scalar codecs (EIP-2537, EIP-196/197, snarkjs's native layout) on fuzzed bytes,
 * counts and strides (seeds: points of the Ethereum test vectors): a decode either succeeds, or
 * names the first bad point (InvalidPointException), or refuses its arguments
 * (IllegalArgumentException, counts and strides that do not fit the bytes, up to 2^62). What
 * decodes is encoded again and must decode to the same points.
 */
class CodecFuzzTest {
    static final Curve[] CURVES = {Curve.BN254, Curve.BN254, Curve.BLS12_381, Curve.BLS12_381};
    static final Group[] GROUPS = {Group.G1, Group.G2, Group.G1, Group.G2};

    @FuzzTest(maxDuration = "15s")
    void decode(FuzzedDataProvider d) {
        int selector = d.consumeByte() & 0xff;
        Curve curve = CURVES[selector & 3];
        Group group = GROUPS[selector & 3];
        Encoding encoding = (selector & 4) != 0 ? Encoding.NATIVE : Encoding.ethereum(curve);
        boolean scalars = (selector & 8) != 0;
        Set<Check> checks = EnumSet.noneOf(Check.class);
        for (Check c : Check.values()) {
            if (d.consumeBoolean()) {
                checks.add(c);
            }
        }
        long count = (selector & 16) != 0 ? d.consumeLong(0, 1L << 62) : d.consumeLong(0, 64);
        long stride = (selector & 32) != 0 ? d.consumeLong(0, 1L << 40) : 0;
        byte[] bytes = d.consumeRemainingAsBytes();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = FuzzSupport.segment(arena, bytes);
            if (scalars) {
                Codec.decodeScalars(arena, curve, encoding, src, count, stride);
                return;
            }
            PointVector points = Codec.decodePoints(arena, curve, group, encoding, src, count, stride, checks);
            if (checks.contains(Check.CANONICAL) && checks.contains(Check.ON_CURVE)) {
                for (long i = 0; i < points.size(); i++) {
                    byte[] again = points.get(i).encode(encoding);
                    PointVector back = Codec.decodePoints(arena, curve, group, encoding, FuzzSupport.segment(arena, again), 1, 0, checks);
                    if (!back.get(0).equals(points.get(i))) {
                        throw new AssertionError("point " + i + " does not survive encode and decode");
                    }
                }
            }
        } catch (InvalidPointException | IllegalArgumentException e) {
            // declared refusals
        }
    }
}
