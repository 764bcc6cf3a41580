package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.Points;
import java.math.BigInteger;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The cuzk command, in process through Main.run (LauncherIT runs bin/cuzk itself). */
class CliTest {
    static final HexFormat HEX = HexFormat.of();



    static String pair(Point p, BigInteger k, Encoding e) {
        return HEX.formatHex(p.encode(e)) + String.format("%064x", k);
    }

    @Test
    void msmOfTwoPairsPrintsTheEncodedSum() {
        for (Curve c : Curve.values()) {
            for (Group g : Group.values()) {
                Encoding e = Encoding.ethereum(c);
                Point gen = Points.generator(c, g);
                Point p2 = Points.multiply(gen, BigInteger.TWO);
                // 3·G + 5·(2G) = 13·G
                String in = pair(gen, BigInteger.valueOf(3), e) + "\n" + pair(p2, BigInteger.valueOf(5), e) + "\n";
                Cli.Result r = Cli.withInput(in, "msm", "--curve", c.cliName(), "--group", g.name().toLowerCase());
                assertEquals(0, r.status(), r.err());
                assertEquals(HEX.formatHex(Points.multiply(gen, BigInteger.valueOf(13)).encode(e)), r.out().trim());
            }
        }
    }

    @Test
    void badPointsNameThePairAndTheReason() {
        Curve c = Curve.BLS12_381;
        Point gen = Points.generator(c, Group.G1);
        String good = pair(gen, BigInteger.ONE, Encoding.EIP2537);
        // (0, 2) is on y^2 = x^3 + 4 but not in G1
        Point outside = Point.ofCoordinates(c, Group.G1, BigInteger.ZERO, BigInteger.TWO);
        Cli.Result r = Cli.withInput(good + good + pair(outside, BigInteger.ONE, Encoding.EIP2537), "msm", "--curve", "bls12-381", "--group", "g1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("pair 2 of 3: the point is not in the prime-order subgroup"), r.err());

        String offCurve = good.substring(0, 255) + (good.charAt(255) == '0' ? '1' : '0') + good.substring(256);
        r = Cli.withInput(good + offCurve, "msm", "--curve", "bls12-381", "--group", "g1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("pair 1 of 2: the point is not on the curve"), r.err());

        String tooBig = "0".repeat(32) + c.p().toString(16) + good.substring(128);
        r = Cli.withInput(tooBig, "msm", "--curve", "bls12-381", "--group", "g1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("pair 0 of 1: a coordinate is not below the field modulus"), r.err());

        r = Cli.withInput(good.substring(2), "msm", "--curve", "bls12-381", "--group", "g1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("invalid input length: 159 bytes"), r.err());

        r = Cli.withInput("zz" + good, "msm", "--curve", "bls12-381", "--group", "g1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("not hex"), r.err());
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, Cli.withInput("", "msm", "--curve", "secp256k1", "--group", "g1").status());
        assertEquals(2, Cli.withInput("", "msm", "--group", "g1").status());
        assertEquals(2, Cli.withInput("", "frobnicate").status());
        assertEquals(2, Cli.withInput("", "msm", "--curve", "bn254", "--group", "g1", "--threads", "-1").status());
        Cli.Result r = Cli.withInput("", "msm", "--curve", "bn254", "--group", "g3");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unknown group 'g3'"), r.err());
        // a snarkjs command line: the usage error says which cuzk command does it
        r = Cli.withInput("", "groth16", "verify", "verification_key.json", "public.json", "proof.json");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("'groth16'") && r.err().contains("cuzk verify"), r.err());
        r = Cli.withInput("", "zkey", "export", "verificationkey", "circuit.zkey", "verification_key.json");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("cuzk export-vk"), r.err());
        assertFalse(Cli.withInput("", "frobnicate").err().contains("snarkjs"), "no hint for a word snarkjs does not use");
    }

    /**
     * An output file's name ending in / names a folder (snarkjs: EISDIR), and an empty path names
     * nothing: usage errors naming the argument, nothing written or made.
     */
    @Test
    void folderNamesAndEmptyPathsAreNoFiles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        String zkey = LauncherIT.repo().resolve("samples/poseidon-bn254/circuit.zkey").toString();
        Cli.Result r = Cli.run("export-vk", zkey, tmp.resolve("out") + "/");
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("<verification_key.json>") && r.err().contains("ends with /, which names a folder"), r.err());
        assertFalse(java.nio.file.Files.exists(tmp.resolve("out")));
        r = Cli.run("prove", zkey, zkey, tmp.resolve("p") + "/", tmp.resolve("public.json").toString());
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("<proof.json>") && r.err().contains("ends with /"), r.err());
        r = Cli.run("workload", "--zkey", zkey, "--wtns", zkey, "--trace", tmp.resolve("t") + "/");
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("--trace") && r.err().contains("ends with /"), r.err());
        r = Cli.run("export-vk", zkey, "");
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("an empty path"), r.err());
        r = Cli.run("verify", "", "public.json", "proof.json");
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("<verification_key.json>") && r.err().contains("an empty path"), r.err());
    }

    @Test
    void demoChecksItsOwnAnswer() {
        Cli.Result r = Cli.withInput("", "msm-demo", "--log-size", "10", "--curve", "bn254", "--group", "g2");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("check against (sum k_i*m_i)*G: OK"), r.out());
    }
}
