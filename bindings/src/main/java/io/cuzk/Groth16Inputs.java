package io.cuzk;

import java.lang.foreign.Arena;
import org.apache.commons.lang3.Validate;

/**
 * What one proof's kernels take besides the key's points: the witness (canonical) and a, b, c,
 * the witness's evaluations of the QAP on the domain (Montgomery form, see {@link Qap}), which the
 * kernels overwrite; and an arena for host memory the backend needs while the proof runs (the
 * CPU backend keeps its copy of h there, so that a, b and c can be given back before the MSMs).
 */
public record Groth16Inputs(ScalarVector witness, ScalarVector a, ScalarVector b, ScalarVector c, Arena scratch) {
    public Groth16Inputs {
        Validate.notNull(witness, "witness");
        Validate.notNull(a, "a");
        Validate.notNull(b, "b");
        Validate.notNull(c, "c");
        Validate.notNull(scratch, "scratch");
    }
}
