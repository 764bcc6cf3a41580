package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * bin/cuzk's native verifier against the Java command, on mutated copies of a valid proof, its
 * public signals and its key (both curves, one and several public signals): wherever the native
 * program answers, its exit status and line are the Java command's; it declines (for the Java
 * command to word) every file the Java command refuses. Groth16VerifierTest holds it to snarkjs's
 * answers on snarkjs's valid and tampered proofs, and to declining its malformed ones.
 */
class NativeVerifyTest {
    @TempDir
    Path tmp;

    static Stream<Arguments> circuits() {
        List<Arguments> out = new ArrayList<>();
        for (Curve c : Curve.values()) {
            out.add(Arguments.of(c, "chain_main"));
            out.add(Arguments.of(c, "multi_main"));
        }
        return out.stream();
    }

    /** Characters a mutation writes: JSON's own, digits, letters of numbers, an escape, a non-ASCII letter. */
    private static final String PALETTE = "0123456789 \n\t\"[]{},:-+.eExabf\\\u00e9";

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void answersAsTheJavaCommandOrDeclines(Curve curve, String circuit) throws Exception {
        Path dir = Circuits.dir(curve, circuit);
        String[] texts = new String[3]; // the key, the public signals, the proof
        texts[0] = Files.readString(dir.resolve("verification_key.json"));
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey")); Witness w = Witness.read(dir.resolve("witness.wtns"))) {
            Proof proof = new Groth16Prover().prove(key, w);
            texts[1] = proof.publicJson();
            texts[2] = proof.proofJson();
        }
        Path[] files = {tmp.resolve("verification_key.json"), tmp.resolve("public.json"), tmp.resolve("proof.json")};
        Random rnd = new Random(31L * curve.ordinal() + circuit.hashCode());
        int answered = 0, answeredInvalid = 0, declined = 0;
        final int mutations = 160;
        for (int m = -1; m < mutations; m++) {
            String[] t = texts.clone();
            String what = "the files as written";
            if (m >= 0) {
                int f = rnd.nextInt(3);
                what = mutate(t, f, rnd);
            }
            for (int f = 0; f < 3; f++) {
                Files.writeString(files[f], t[f]);
            }
            Cli.Result java = Cli.run("verify", files[0].toString(), files[1].toString(), files[2].toString());
            NativeVerifier.Result n = NativeVerifier.run(files[0], files[1], files[2]);
            String label = what + ": native " + n.status() + " " + n.out().strip() + n.err() + ", Java " + java.status() + " "
                    + java.out().strip() + java.err().strip();
            assertEquals("", n.err(), label);
            if (n.status() == NativeVerifier.DECLINED) {
                assertEquals("", n.out(), label);
                declined++;
                assertTrue(m >= 0, "the files as cuzk writes them are answered natively: " + label);
                continue;
            }
            assertEquals(java.status(), n.status(), label);
            assertEquals(java.out(), n.out(), label);
            answered++;
            if (n.status() == 1) {
                answeredInvalid++;
            }
        }
        // the mutations reach both kinds of answer, and both paths
        assertTrue(answered >= 20 && answeredInvalid >= 5 && declined >= 20,
                "answered " + answered + " (invalid " + answeredInvalid + "), declined " + declined);
    }

    /** One random edit of texts[f], described. */
    private static String mutate(String[] texts, int f, Random rnd) {
        String s = texts[f];
        String[] names = {"verification_key.json", "public.json", "proof.json"};
        int kind = rnd.nextInt(5);
        StringBuilder b = new StringBuilder(s);
        String what;
        switch (kind) {
            case 0 -> { // a digit of a number changed: off the curve, or (a signal) a proof that does not verify
                List<Integer> digits = new ArrayList<>();
                for (int i = 0; i < s.length(); i++) {
                    if (Character.isDigit(s.charAt(i))) {
                        digits.add(i);
                    }
                }
                int at = digits.get(rnd.nextInt(digits.size()));
                char to = (char) ('0' + (s.charAt(at) - '0' + 1 + rnd.nextInt(9)) % 10);
                b.setCharAt(at, to);
                what = "digit " + at + " -> " + to;
            }
            case 1 -> { // white space between tokens: the same files
                int at = tokenBoundary(s, rnd);
                String ws = List.of(" ", "\n", "\t", "\r\n").get(rnd.nextInt(4));
                b.insert(at, ws);
                what = "white space at " + at;
            }
            case 2 -> {
                int at = rnd.nextInt(s.length());
                char c = PALETTE.charAt(rnd.nextInt(PALETTE.length()));
                b.setCharAt(at, c);
                what = "char " + at + " -> " + c;
            }
            case 3 -> {
                int at = rnd.nextInt(s.length());
                b.deleteCharAt(at);
                what = "char " + at + " deleted";
            }
            default -> {
                int at = rnd.nextInt(s.length() + 1);
                char c = PALETTE.charAt(rnd.nextInt(PALETTE.length()));
                b.insert(at, c);
                what = "char " + c + " inserted at " + at;
            }
        }
        texts[f] = b.toString();
        return names[f] + ": " + what;
    }

    /** A position next to a structural character of the JSON text (outside strings). */
    private static int tokenBoundary(String s, Random rnd) {
        List<Integer> at = new ArrayList<>();
        boolean inString = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                inString = !inString;
                if (!inString) {
                    at.add(i + 1);
                }
            } else if (!inString && "[]{},:".indexOf(c) >= 0) {
                at.add(i);
                at.add(i + 1);
            }
        }
        return at.get(rnd.nextInt(at.size()));
    }
}
