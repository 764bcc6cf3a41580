package io.cuzk.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cuzk.CuzkException;
import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.lang.foreign.Arena;

/**
 * The .zkey reader on mutated keys (seeds: real BN254 and BLS12-381 keys): every input is either
 * refused with a FormatException naming the file, or accepted; an accepted key must then prove
 * (with a witness of its size) without crashing: a key the checks let through must be safe for
 * the kernels. Any other exception, a crash or a hang is a finding.
 */
class ZkeyFuzzTest {
    @FuzzTest(maxDuration = "15s")
    void zkey(byte[] data) {
        try (Arena arena = Arena.ofConfined()) {
            ProvingKey key;
            try {
                key = ProvingKey.parse("fuzzed.zkey", FuzzSupport.segment(arena, data));
            } catch (FormatException e) {
                if (!e.getMessage().startsWith("fuzzed.zkey: ")) {
                    throw new AssertionError("the message does not name the file: " + e.getMessage());
                }
                return;
            }
            try (key; Witness w = FuzzSupport.witness(arena, key.curve(), key.nVars())) {
                if ((long) key.domainSize() * 32 * 8 > (64L << 20)) {
                    return; // a header naming a domain this large is valid; proving it is not what is tested here
                }
                new Groth16Prover().prove(key, w);
            } catch (CuzkException e) {
                // a native refusal (out of memory for a huge declared domain, say) is a declared outcome
            }
        }
    }
}
