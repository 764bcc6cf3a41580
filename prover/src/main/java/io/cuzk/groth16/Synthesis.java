package io.cuzk.groth16;

import io.cuzk.Qap;
import io.cuzk.ScalarVector;

/**
 * Groth16 synthesis of a snarkjs key's circuit on the CPU: the witness's evaluations a = A·w,
 * b = B·w and c = a∘b on the key's domain, from the key's coefficient section (whose entries have
 * the layout the native kernel reads, see {@link Qap}).
 */
public final class Synthesis {
    private Synthesis() {}

    /**
     * Fills a, b and c (Montgomery form, the key's domain size each) from a canonical witness of the
     * key's circuit, on the given number of native threads (0 = all). The key's close waits for
     * it; the witness's memory must stay alive until it returns.
     */
    public static void abc(ProvingKey key, ScalarVector witness, ScalarVector a, ScalarVector b, ScalarVector c, int threads) {
        // the kernel reads the coefficients through an address in its arguments' struct, which the
        // JDK does not count as a use of the key's memory: the key's close waits for this one
        try (CloseGate.Use use = key.use()) {
            Qap.evaluate(key.coefficients(), key.nCoefficients(), witness, a, b, c, threads);
        }
    }
}
