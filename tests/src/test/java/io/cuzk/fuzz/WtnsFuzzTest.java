package io.cuzk.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The .wtns reader on mutated witnesses (seeds: real BN254 and BLS12-381 witnesses): refused with a
 * FormatException naming the file, or accepted; an accepted witness that fits the seed key is proved
 * with it. Any other exception, a crash or a hang is a finding.
 */
class WtnsFuzzTest {
    static Arena keyArena;
    static ProvingKey key;

    @BeforeAll
    static void readKey() {
        keyArena = Arena.ofShared();
        key = FuzzSupport.seedKey(keyArena);
    }

    @AfterAll
    static void closeKey() {
        key.close();
        keyArena.close();
    }

    @FuzzTest(maxDuration = "15s")
    void wtns(byte[] data) {
        try (Arena arena = Arena.ofConfined()) {
            Witness w;
            try {
                w = Witness.parse("fuzzed.wtns", FuzzSupport.segment(arena, data));
            } catch (FormatException e) {
                if (!e.getMessage().startsWith("fuzzed.wtns: ")) {
                    throw new AssertionError("the message does not name the file: " + e.getMessage());
                }
                return;
            }
            try (w) {
                try {
                    w.requireFits(key);
                } catch (FormatException e) {
                    return;
                }
                new Groth16Prover().prove(key, w);
            }
        }
    }
}
