package io.cuzk.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * input.json's strings read as JavaScript's BigInt(string) reads them (ECMAScript's
 * StringToBigInt), which is what snarkjs's witness calculation applies to every value: the answers
 * below are what BigInt gives in Node, SyntaxError as null.
 */
class BigIntSyntaxTest {
    @Test
    void acceptsWhatBigIntAccepts() {
        String[][] cases = {
            {"", "0"}, {"   ", "0"}, {"12", "12"}, {" 12 ", "12"}, {"\t\n12\r\n", "12"}, {"\u00a012\u2003", "12"}, {"\ufeff7", "7"},
            {"+5", "5"}, {"-5", "-5"}, {"-0", "0"}, {"00012", "12"}, {"0x1F", "31"}, {"0X1f", "31"}, {" 0x10 ", "16"},
            {"0o17", "15"}, {"0O17", "15"}, {"0b101", "5"}, {"0B101", "5"},
            {"21888242871839275222246405745257275088548364400416034343698204186575808495617",
                "21888242871839275222246405745257275088548364400416034343698204186575808495617"},
        };
        for (String[] c : cases) {
            assertEquals(new BigInteger(c[1]), WitnessCalculator.bigInt(c[0]), "BigInt(\"" + c[0] + "\")");
        }
    }

    @Test
    void refusesWhatBigIntRefuses() {
        for (String s : new String[] {"-0x1", "+0x1", "0x", "0o", "0b", "0b2", "0o8", "0xg", "1_000", "1.0", "1e3", "12a", "+", "-",
            "--1", "\u0661", "0x\u0661", "Infinity", "1 2"}) {
            assertNull(WitnessCalculator.bigInt(s), "BigInt(\"" + s + "\") is a SyntaxError");
        }
    }
}
