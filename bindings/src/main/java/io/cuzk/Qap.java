package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.Structs;
import io.cuzk.internal.ffi.cuzk_abc_config;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * The first step of a Groth16 proof, on the host whatever the backend: the witness's evaluations of
 * the QAP's A and B polynomials at each constraint, a = A·w and b = B·w, and c = a∘b, from the
 * constraint system's sparse coefficients in the ABI's entry format (see {@code cuzk_groth16_abc}
 * in cuzk.h: the layout of a snarkjs zkey's coefficient section).
 */
public final class Qap {
    private Qap() {}

    /** Bytes of one coefficient entry: u32 matrix (0 = A, 1 = B), u32 constraint, u32 signal, 32-byte value. */
    public static final int COEFFICIENT_BYTES = 44;

    /**
     * Fills a, b and c (Montgomery form, of the domain's size) from count entries and a canonical
     * witness, on the given number of native threads (0 = all). An entry that points outside the
     * domain or the witness fails with a {@link CuzkException} naming it.
     */
    public static void evaluate(MemorySegment coefficients, long count, ScalarVector witness, ScalarVector a, ScalarVector b,
            ScalarVector c, int threads) {
        NativeLibrary.require();
        Validate.notNull(coefficients, "coefficients");
        Validate.notNull(witness, "witness");
        Validate.isTrue(count >= 0 && count <= coefficients.byteSize() / COEFFICIENT_BYTES,
                "%d coefficient entries do not fit a segment of %d bytes", count, coefficients.byteSize());
        Validate.isTrue(witness.form() == ScalarForm.CANONICAL, "the witness must be canonical");
        Validate.isTrue(threads >= 0, "threads must be >= 0 (0 = all), not %d", threads);
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            Validate.notNull(v, "a, b and c");
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
            Structs.setAddress(cfg, cuzk_abc_config.coeffs$offset(), coefficients);
            Structs.setAddress(cfg, cuzk_abc_config.witness$offset(), witness.segment());
            Checked.check(cuzk_h.cuzk_groth16_abc(cfg, a.segment(), b.segment(), c.segment()), "cuzk_groth16_abc");
        }
    }
}
