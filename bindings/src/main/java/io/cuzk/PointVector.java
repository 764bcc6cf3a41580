package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.Set;
import org.apache.commons.lang3.Validate;

/**
 * Affine points of one group in the native layout, in an off-heap segment the caller owns. The
 * segment's arena decides its lifetime: once it is closed, every use of this vector throws
 * {@link IllegalStateException} (no native code runs on freed memory).
 */
public final class PointVector {
    private final Curve curve;
    private final Group group;
    private final MemorySegment segment;
    private final long size;

    private PointVector(Curve curve, Group group, MemorySegment segment) {
        this.curve = curve;
        this.group = group;
        this.segment = segment;
        this.size = segment.byteSize() / curve.pointBytes(group);
    }

    /** n points at infinity (zeros) in memory of the given arena (large vectors in huge pages: {@link HostMemory}). */
    public static PointVector allocate(Arena arena, Curve curve, Group group, long n) {
        Validate.notNull(arena, "arena");
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.isTrue(n >= 0, "point count must not be negative: %d", n);
        return new PointVector(curve, group, HostMemory.allocate(arena, Math.multiplyExact(n, (long) curve.pointBytes(group))));
    }

    /**
     * Views an existing segment (for example a mapped section of a zkey) as points. Its size must
     * be a whole number of points; its address may be any (the kernels that read points accept
     * them at any address, and a zkey's point sections usually start 4 bytes past an 8-byte
     * boundary), but a vector written by a kernel, such as {@link Points#multiply}'s output, must
     * be 8-byte aligned. Nothing is checked about the points themselves: call {@link #check(Set)}
     * for untrusted data.
     */
    public static PointVector wrap(Curve curve, Group group, MemorySegment segment) {
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.notNull(segment, "segment");
        int pb = curve.pointBytes(group);
        Validate.isTrue(segment.byteSize() % pb == 0, "a %s %s segment must hold whole %d-byte points, not %d bytes",
                curve.cliName(), group, pb, segment.byteSize());
        Validate.isTrue(segment.isNative(), "point vectors must be off-heap segments");
        return new PointVector(curve, group, segment);
    }

    public Curve curve() {
        return curve;
    }

    public Group group() {
        return group;
    }

    /** Number of points. */
    public long size() {
        return size;
    }

    /** Bytes per point. */
    public int pointBytes() {
        return curve.pointBytes(group);
    }

    /** The backing memory. */
    public MemorySegment segment() {
        return segment;
    }

    /** The points [from, from + count) as a vector over the same memory. */
    public PointVector slice(long from, long count) {
        Objects.checkFromIndexSize(from, count, size);
        return new PointVector(curve, group, segment.asSlice(from * pointBytes(), count * pointBytes()));
    }

    /** A copy of point i. */
    public Point get(long i) {
        Objects.checkIndex(i, size);
        return new Point(curve, group, segment.asSlice(i * pointBytes(), pointBytes()).toArray(ValueLayout.JAVA_BYTE));
    }

    /** Stores p at position i. */
    public void set(long i, Point p) {
        Objects.checkIndex(i, size);
        Validate.isTrue(p.curve() == curve && p.group() == group, "a %s %s point cannot go into a %s %s vector",
                p.curve().cliName(), p.group(), curve.cliName(), group);
        MemorySegment.copy(MemorySegment.ofArray(p.nativeBytes()), 0, segment, i * pointBytes(), pointBytes());
    }

    /**
     * Runs the given checks on every point, on all hardware threads, and throws
     * {@link InvalidPointException} naming the first failing point.
     */
    public void check(Set<Check> checks) {
        NativeLibrary.require();
        if (size == 0) {
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = Codec.config(a, curve, group, Encoding.NATIVE, size);
            cuzk_codec_config.checks(cfg, Check.mask(checks));
            MemorySegment result = cuzk_check_result.allocate(a);
            // a NULL destination: checked, not copied
            Checked.checkPoints(cuzk_h.cuzk_points_decode(cfg, segment, MemorySegment.NULL, result), result, "cuzk_points_decode",
                    "point");
        }
    }

    @Override
    public String toString() {
        return "PointVector[" + curve.cliName() + " " + group + ", " + size + " points]";
    }
}
