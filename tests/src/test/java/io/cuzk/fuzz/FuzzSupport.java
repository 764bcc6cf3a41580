package io.cuzk.fuzz;

import io.cuzk.Curve;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** What the fuzz tests share: the real files they start from, and inputs copied into native memory. */
final class FuzzSupport {
    private FuzzSupport() {}

    static byte[] resource(String name) {
        try (InputStream in = FuzzSupport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + name + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** bytes in native memory of arena (the readers take native segments, as files give them). */
    static MemorySegment segment(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(Math.max(1, bytes.length), 8).asSlice(0, bytes.length);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, s, 0, bytes.length);
        return s;
    }

    /** A .wtns of n values for curve: 1, then 2, 3, ... (a witness any key of n variables accepts). */
    static Witness witness(Arena arena, Curve curve, int n) {
        ByteBuffer b = ByteBuffer.allocate(12 + 12 + 40 + 12 + 32 * n).order(ByteOrder.LITTLE_ENDIAN);
        b.put("wtns".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(2).putInt(2);
        b.putInt(1).putLong(40).putInt(32).put(le(curve.r(), 32)).putInt(n);
        b.putInt(2).putLong(32L * n);
        for (int i = 0; i < n; i++) {
            b.put(le(BigInteger.valueOf(i + 1), 32));
        }
        return Witness.parse("generated.wtns", segment(arena, b.array()));
    }

    static byte[] le(BigInteger v, int n) {
        byte[] out = new byte[n];
        byte[] be = v.toByteArray();
        for (int i = 0; i < Math.min(n, be.length); i++) {
            out[i] = be[be.length - 1 - i];
        }
        return out;
    }

    /** The key the witness fuzz test proves with. */
    static ProvingKey seedKey(Arena arena) {
        return ProvingKey.parse("multi-bn254.zkey", segment(arena, resource("multi-bn254.zkey")));
    }
}
