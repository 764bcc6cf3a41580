package io.cuzk.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The coordinates' decimal reader (18 digits a step into 64-bit words) against BigInteger's. */
class SnarkjsJsonTest {
    private static BigInteger value(long[] w) {
        BigInteger v = BigInteger.ZERO;
        for (int k = w.length - 1; k >= 0; k--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(w[k])));
        }
        return v;
    }

    @Test
    void readsEveryLengthAsBigIntegerDoes() {
        Random rnd = new Random(31);
        for (int words : new int[] {4, 6}) {
            BigInteger limit = BigInteger.ONE.shiftLeft(64 * words);
            for (int len = 1; len <= 200; len++) {
                for (int t = 0; t < 6; t++) {
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < len; i++) {
                        sb.append((char) ('0' + (t == 0 ? 9 : t == 1 && i < len - 1 ? 0 : rnd.nextInt(10))));
                    }
                    String s = sb.toString();
                    BigInteger expected = new BigInteger(s);
                    long[] w = new long[words];
                    boolean fits = SnarkjsJson.decimalWords(s, w);
                    assertEquals(expected.compareTo(limit) < 0, fits, s);
                    if (fits) {
                        assertEquals(expected, value(w), s);
                    }
                }
            }
            // the edges: 2^(64 words) - 1 fits, 2^(64 words) does not
            long[] w = new long[words];
            assertTrue(SnarkjsJson.decimalWords(limit.subtract(BigInteger.ONE).toString(), w));
            assertEquals(limit.subtract(BigInteger.ONE), value(w));
            assertFalse(SnarkjsJson.decimalWords(limit.toString(), new long[words]));
        }
    }

    /** Curve names as snarkjs's getCurveFromName reads them; 0x numbers as its unstringifyBigInts takes them. */
    @Test
    void curveNamesAndHexAsSnarkjs() {
        for (String n : new String[] {"bn128", "BN254", "alt_bn128", "AltBn128", "bn-254"}) {
            assertEquals(io.cuzk.Curve.BN254, SnarkjsJson.curveNamed(n), n);
        }
        for (String n : new String[] {"bls12381", "BLS12-381", "bls12_381"}) {
            assertEquals(io.cuzk.Curve.BLS12_381, SnarkjsJson.curveNamed(n), n);
        }
        for (String n : new String[] {"", "bn", "secp256k1", "bls12377"}) {
            assertEquals(null, SnarkjsJson.curveNamed(n), n);
        }
        // any length (snarkjs's /^0x[0-9a-fA-F]+$/): leading zeros are still the number, a long one is too large for the field
        assertTrue(SnarkjsJson.isHex("0x1") && SnarkjsJson.isHex("0xdeadBEEF") && SnarkjsJson.isHex("0x" + "0".repeat(300) + "1"));
        for (String s : new String[] {"0x", "0X1", "x1", "0x1g", "-0x1", " 0x1", "0x1 ", "0x\u0661"}) {
            assertFalse(SnarkjsJson.isHex(s), s);
        }
    }

    /**
     * public.json as snarkjs's command line writes it (bfj, one space a level, no new line at the
     * end): an empty array too, which bfj writes as a bracket, a new line and a bracket.
     */
    @Test
    void publicJsonAsSnarkjsWritesIt() {
        io.cuzk.Point g1 = io.cuzk.Points.generator(io.cuzk.Curve.BN254, io.cuzk.Group.G1);
        io.cuzk.Point g2 = io.cuzk.Points.generator(io.cuzk.Curve.BN254, io.cuzk.Group.G2);
        assertEquals("[\n]", new Proof(io.cuzk.Curve.BN254, g1, g2, g1, java.util.List.of()).publicJson());
        assertEquals("[\n \"1\",\n \"2\"\n]", new Proof(io.cuzk.Curve.BN254, g1, g2, g1, java.util.List.of(BigInteger.ONE, BigInteger.TWO))
                .publicJson());
    }

    /** A value in a message: only its first characters are written, however large it is. */
    @Test
    void previewsWriteOnlyWhatTheyShow() throws Exception {
        Json big = Json.parse("[\"" + "\\u0001".repeat(1_000_000) + "\", 2]");
        String p = big.preview(40);
        assertEquals(40, p.length(), p);
        assertTrue(p.startsWith("[\"\\u0001\\u0001") && p.endsWith("..."), p);
        assertEquals("{\"a\":[1,\"x\"]}", Json.parse("{\"a\": [1, \"x\"]}").preview(40));
    }
}
