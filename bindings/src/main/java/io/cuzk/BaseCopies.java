package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_msm_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * Shifted copies of MSM bases for the GPU MSM (fixed-base windows), for bases a device keeps. With
 * windows of c bits a scalar has W Booth digits; a table of K copies holds K blocks of the n bases,
 * block k being 2^(k S c) times the bases (block 0), S = ceil(W / K). An MSM over the table sums S
 * rows of buckets instead of W windows: the same W n bucket additions, fewer window sums and
 * doublings, and room for wider windows; it costs K times the bases' device memory and S c
 * doublings per point and block, once. {@link #NONE} is the plain bases.
 *
 * <p>The CUDA backend builds tables for a resident key's G1 point sets within the bytes
 * {@code cuzk.cuda.precompute-mib} allows per key (see {@link CudaBackend#open(int, G2Placement, long)}).
 *
 * @param windowBits the window width the table was made for (0 for {@link #NONE}; else 2..20)
 * @param copies the blocks, at least 1 (1: the plain bases)
 */
public record BaseCopies(int windowBits, int copies) {
    /** The plain bases: no copies, the MSM's own window width. */
    public static final BaseCopies NONE = new BaseCopies(0, 1);

    public BaseCopies {
        Validate.isTrue(windowBits == 0 || (windowBits >= 2 && windowBits <= 20), "window bits must be 0 or 2..20, not %d", windowBits);
        Validate.isTrue(copies >= 1, "copies must be at least 1, not %d", copies);
        Validate.isTrue(copies == 1 || windowBits != 0, "a table of %d copies needs the window bits it is made for", copies);
    }

    /** Whether this is a table of more than the plain bases. */
    public boolean shifted() {
        return copies > 1;
    }

    /** The table's bytes for n points of the group (block 0, the bases, included). */
    public long tableBytes(Curve curve, Group group, long n) {
        return Math.multiplyExact(Math.multiplyExact((long) copies, n), (long) curve.pointBytes(group));
    }

    /**
     * The most copies whose table of n points takes at most maxBytes (at least the plain bases, at
     * most one per window, the fewest that give the same rows), for windows of windowBits bits (0:
     * the GPU MSM's choice for n).
     */
    public static BaseCopies plan(Curve curve, Group group, long n, int windowBits, long maxBytes) {
        Validate.notNull(curve, "curve");
        Validate.notNull(group, "group");
        Validate.isTrue(n >= 0 && maxBytes >= 0, "negative size or bytes");
        Validate.isTrue(windowBits == 0 || (windowBits >= 2 && windowBits <= 20), "window bits must be 0 or 2..20, not %d", windowBits);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = config(a, curve, group, n, new BaseCopies(windowBits, 1));
            Checked.check(cuzk_h.cuzk_msm_plan(cfg, maxBytes), "cuzk_msm_plan");
            return new BaseCopies(cuzk_msm_config.window_bits(cfg), cuzk_msm_config.copies(cfg));
        }
    }

    /** An MSM config for n points over this table (scalar form and threads left 0). */
    static MemorySegment config(Arena a, Curve curve, Group group, long n, BaseCopies copies) {
        MemorySegment cfg = cuzk_msm_config.allocate(a);
        cuzk_msm_config.curve(cfg, curve.id());
        cuzk_msm_config.group(cfg, group.id());
        cuzk_msm_config.window_bits(cfg, copies.windowBits());
        cuzk_msm_config.copies(cfg, copies.copies());
        cuzk_msm_config.count(cfg, n);
        return cfg;
    }
}
