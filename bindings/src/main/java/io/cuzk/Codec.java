package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import org.apache.commons.lang3.Validate;

/**
 * Converts points and scalars between the native layout and the encodings users hold: EIP-2537
 * (BLS12-381), EIP-196/197 (BN254) and the native/snarkjs little-endian Montgomery layout. Decoding
 * checks each point as asked and names the first bad one in an {@link InvalidPointException}.
 */
public final class Codec {
    private Codec() {}

    /**
     * Decodes {@code count} points of {@code encoding} from {@code src}, one every
     * {@code srcStride} bytes (0 = packed), into a new vector in {@code arena}.
     */
    public static PointVector decodePoints(Arena arena, Curve curve, Group group, Encoding encoding, MemorySegment src,
            long count, long srcStride, Set<Check> checks) {
        NativeLibrary.require();
        requireEncoding(curve, encoding);
        Validate.notNull(src, "src");
        Validate.notNull(checks, "checks");
        Validate.isTrue(count >= 0, "count must not be negative");
        long size = encoding.pointBytes(curve, group);
        long stride = srcStride == 0 ? size : srcStride;
        Validate.isTrue(stride >= size, "the stride %d is shorter than one %d-byte point", stride, size);
        Validate.isTrue(fits(src.byteSize(), count, stride, size),
                "%d bytes cannot hold %d points of %d bytes every %d bytes", src.byteSize(), count, size, stride);
        PointVector out = PointVector.allocate(arena, curve, group, count);
        if (count == 0) {
            return out;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = config(a, curve, group, encoding, count);
            cuzk_codec_config.checks(cfg, Check.mask(checks));
            cuzk_codec_config.src_stride(cfg, stride);
            MemorySegment result = cuzk_check_result.allocate(a);
            Checked.checkPoints(cuzk_h.cuzk_points_decode(cfg, src, out.segment(), result), result, "cuzk_points_decode", "point");
        }
        return out;
    }

    /** Decodes packed points with all checks. */
    public static PointVector decodePoints(Arena arena, Curve curve, Group group, Encoding encoding, MemorySegment src) {
        long size = encoding.pointBytes(curve, group);
        Validate.isTrue(src.byteSize() % size == 0, "%d bytes are not a whole number of %d-byte %s %s points in %s",
                src.byteSize(), size, curve.cliName(), group, encoding);
        return decodePoints(arena, curve, group, encoding, src, src.byteSize() / size, 0, Check.all());
    }

    /** Encodes every point of {@code points} into {@code dst}, packed. */
    public static void encodePoints(PointVector points, Encoding encoding, MemorySegment dst) {
        NativeLibrary.require();
        requireEncoding(points.curve(), encoding);
        long size = encoding.pointBytes(points.curve(), points.group());
        Validate.isTrue(dst.byteSize() >= points.size() * size, "the destination holds %d bytes, %d are needed", dst.byteSize(),
                points.size() * size);
        if (points.size() == 0) {
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = config(a, points.curve(), points.group(), encoding, points.size());
            Checked.check(cuzk_h.cuzk_points_encode(cfg, points.segment(), dst), "cuzk_points_encode");
        }
    }

    /** One point in an encoding. */
    public static byte[] encode(Point p, Encoding encoding) {
        try (Arena a = Arena.ofConfined()) {
            PointVector v = PointVector.allocate(a, p.curve(), p.group(), 1);
            v.set(0, p);
            MemorySegment out = a.allocate(encoding.pointBytes(p.curve(), p.group()));
            encodePoints(v, encoding, out);
            return out.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** One point from an encoding, with the given checks. */
    public static Point decode(Curve curve, Group group, Encoding encoding, byte[] encoded, Set<Check> checks) {
        Validate.isTrue(encoded.length == encoding.pointBytes(curve, group), "a %s %s point in %s has %d bytes, not %d",
                curve.cliName(), group, encoding, encoding.pointBytes(curve, group), encoded.length);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment src = a.allocate(encoded.length);
            MemorySegment.copy(MemorySegment.ofArray(encoded), 0, src, 0, encoded.length);
            return decodePoints(a, curve, group, encoding, src, 1, 0, checks).get(0);
        }
    }

    /**
     * Decodes {@code count} 32-byte scalars of {@code encoding} (big-endian for the Ethereum
     * encodings, little-endian for NATIVE), one every {@code srcStride} bytes (0 = packed), into a
     * new canonical vector. Values are kept as they are (the kernels reduce them modulo r).
     */
    public static ScalarVector decodeScalars(Arena arena, Curve curve, Encoding encoding, MemorySegment src, long count,
            long srcStride) {
        NativeLibrary.require();
        requireEncoding(curve, encoding);
        Validate.isTrue(count >= 0, "count must not be negative");
        long stride = srcStride == 0 ? Curve.SCALAR_BYTES : srcStride;
        Validate.isTrue(stride >= Curve.SCALAR_BYTES, "the stride %d is shorter than one 32-byte scalar", stride);
        Validate.isTrue(fits(src.byteSize(), count, stride, Curve.SCALAR_BYTES),
                "%d bytes cannot hold %d scalars every %d bytes", src.byteSize(), count, stride);
        ScalarVector out = ScalarVector.allocate(arena, curve, count, ScalarForm.CANONICAL);
        if (count == 0) {
            return out;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = config(a, curve, Group.G1, encoding, count);
            cuzk_codec_config.src_stride(cfg, stride);
            Checked.check(cuzk_h.cuzk_scalars_decode(cfg, src, out.segment(), MemorySegment.NULL), "cuzk_scalars_decode");
        }
        return out;
    }

    /** Encodes canonical scalars into {@code dst}, packed. */
    public static void encodeScalars(ScalarVector scalars, Encoding encoding, MemorySegment dst) {
        NativeLibrary.require();
        requireEncoding(scalars.curve(), encoding);
        Validate.isTrue(scalars.form() == ScalarForm.CANONICAL, "only canonical scalars can be encoded; convert Montgomery ones first");
        Validate.isTrue(dst.byteSize() >= scalars.size() * Curve.SCALAR_BYTES, "the destination is too small");
        if (scalars.size() == 0) {
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = config(a, scalars.curve(), Group.G1, encoding, scalars.size());
            Checked.check(cuzk_h.cuzk_scalars_encode(cfg, scalars.segment(), dst), "cuzk_scalars_encode");
        }
    }

    private static void requireEncoding(Curve curve, Encoding encoding) {
        Validate.notNull(curve, "curve");
        Validate.notNull(encoding, "encoding");
        Validate.isTrue(encoding.supports(curve), "%s is not defined for %s", encoding, curve.cliName());
    }

    /**
     * Whether bytes hold count items of size bytes, one every stride bytes (stride >= size), without
     * the overflow of (count - 1) * stride + size: a count near 2^62 must not pass.
     */
    static boolean fits(long bytes, long count, long stride, long size) {
        return count == 0 || (bytes >= size && count - 1 <= (bytes - size) / stride);
    }

    /** A codec config for count items (scalars ignore the group) in the given scratch arena. */
    static MemorySegment config(Arena a, Curve curve, Group group, Encoding encoding, long count) {
        MemorySegment cfg = cuzk_codec_config.allocate(a);
        cuzk_codec_config.curve(cfg, curve.id());
        cuzk_codec_config.group(cfg, group.id());
        cuzk_codec_config.encoding(cfg, encoding.id());
        cuzk_codec_config.count(cfg, count);
        return cfg;
    }
}
