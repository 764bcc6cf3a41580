package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_abc_config;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_h_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * Groth16 synthesis on the CPU: the witness's evaluations a = A·w, b = B·w and c = a∘b, and from
 * them the quotient's evaluations h.
 */
public final class Synthesis {
    private Synthesis() {}

    /** Bytes of one entry of a snarkjs coefficient section: u32 matrix, u32 constraint, u32 signal, 32-byte value. */
    public static final int COEFFICIENT_BYTES = 44;

    /**
     * Fills a, b and c (Montgomery form, of the domain's size) from the entries of a snarkjs zkey
     * coefficient section (without its leading count) and a canonical witness. An entry that
     * points outside the domain or the witness fails with a {@link CuzkException} naming it.
     */
    public static void abc(MemorySegment coefficients, long count, ScalarVector witness, ScalarVector a, ScalarVector b,
            ScalarVector c, int threads) {
        Validate.notNull(coefficients, "coefficients");
        Validate.isTrue(count >= 0 && coefficients.byteSize() >= count * COEFFICIENT_BYTES,
                "%d coefficient entries need %d bytes, the segment has %d", count, count * COEFFICIENT_BYTES, coefficients.byteSize());
        Validate.isTrue(witness.form() == ScalarForm.CANONICAL, "the witness must be canonical");
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            Validate.isTrue(v.form() == ScalarForm.MONTGOMERY, "a, b and c are Montgomery-form outputs");
            Validate.isTrue(v.size() == a.size(), "a, b and c must have the same size");
            Validate.isTrue(v.curve() == witness.curve(), "a, b, c and the witness belong to different curves");
        }
        Validate.isTrue(a.size() > 0 && witness.size() > 0, "the domain and the witness must not be empty");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_abc_config.allocate(arena);
            cuzk_abc_config.curve(cfg, witness.curve().id());
            cuzk_abc_config.threads(cfg, threads);
            cuzk_abc_config.n_coeffs(cfg, count);
            cuzk_abc_config.n_vars(cfg, witness.size());
            cuzk_abc_config.domain_size(cfg, a.size());
            cuzk_abc_config.coeffs(cfg, coefficients);
            cuzk_abc_config.witness(cfg, witness.segment());
            Checked.check(cuzk_h.cuzk_groth16_abc(cfg, a.segment(), b.segment(), c.segment()), "cuzk_groth16_abc");
        }
    }

    /**
     * Makes and keeps what {@link #h} needs for a domain of 2^logN elements (roots of unity,
     * twiddles, the coset's powers), so that the first H of that size does not pay for it: a
     * prover that learns its domain size before it has read its inputs calls this meanwhile.
     */
    public static void prepareH(Curve curve, int logN, int threads) {
        Validate.notNull(curve, "curve");
        Validate.isTrue(logN >= 0 && logN < curve.twoAdicity(), "no domain of 2^%d elements in %s's Fr", logN, curve.cliName());
        Validate.isTrue(threads >= 0, "threads must be >= 0 (0 = all), not %d", threads);
        callH(curve, logN, threads, cuzk_h.CUZK_H_PREPARE(), MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
    }

    /**
     * Groth16's H in one native call, as snarkjs computes it: the inverse NTT of a, b and c
     * (Montgomery form, evaluations on the domain of their size, a power of two), the NTT on the
     * coset by the root of unity of twice that order, then h = a·b − c, left in a (Montgomery
     * form); b and c are overwritten.
     */
    public static void h(ScalarVector a, ScalarVector b, ScalarVector c, int threads) {
        h(a, b, c, threads, ScalarForm.MONTGOMERY);
    }

    /**
     * {@link #h(ScalarVector, ScalarVector, ScalarVector, int)} with h left in a in the given form,
     * returned as a view of a's memory in that form. Canonical h is what an MSM takes without
     * first converting a copy of its scalars (Groth16's H·h).
     */
    public static ScalarVector h(ScalarVector a, ScalarVector b, ScalarVector c, int threads, ScalarForm hForm) {
        Validate.notNull(hForm, "hForm");
        Validate.notNull(a, "a");
        Validate.notNull(b, "b");
        Validate.notNull(c, "c");
        Validate.isTrue(threads >= 0, "threads must be >= 0 (0 = all), not %d", threads);
        long n = a.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "the domain size %d is not a power of two", n);
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            Validate.isTrue(v.form() == ScalarForm.MONTGOMERY, "a, b and c must be in Montgomery form");
            Validate.isTrue(v.size() == n, "a, b and c must have the same size");
            Validate.isTrue(v.curve() == a.curve(), "a, b and c belong to different curves");
        }
        Validate.isTrue(a.segment().address() != b.segment().address() && b.segment().address() != c.segment().address()
                && a.segment().address() != c.segment().address(), "a, b and c must be distinct vectors");
        int flags = hForm == ScalarForm.CANONICAL ? cuzk_h.CUZK_H_CANONICAL() : 0;
        callH(a.curve(), Long.numberOfTrailingZeros(n), threads, flags, a.segment(), b.segment(), c.segment());
        return hForm == a.form() ? a : ScalarVector.wrap(a.curve(), hForm, a.segment());
    }

    private static void callH(Curve curve, int logN, int threads, int flags, MemorySegment a, MemorySegment b, MemorySegment c) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_h_config.allocate(arena);
            cuzk_h_config.curve(cfg, curve.id());
            cuzk_h_config.log_n(cfg, logN);
            cuzk_h_config.threads(cfg, threads);
            cuzk_h_config.flags(cfg, flags);
            Checked.check(cuzk_h.cuzk_groth16_h(cfg, a, b, c), "cuzk_groth16_h");
        }
    }
}
