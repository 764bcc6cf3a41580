package io.cuzk.groth16;

import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.lang3.Validate;

/** A Groth16 proof with its public signals, and their snarkjs JSON forms. */
public record Proof(Curve curve, Point piA, Point piB, Point piC, List<BigInteger> publicSignals) {
    /**
     * A proof from its parts: A and C points of the curve's G1, B of its G2 (an
     * {@link IllegalArgumentException} naming the field otherwise, a NullPointerException for a null
     * one), the signals copied (none null). Nothing else is checked here:
     * {@link Groth16Verifier#verify} checks the points and signals.
     */
    public Proof {
        Validate.notNull(curve, "curve");
        VerificationKey.requireGroup(piA, curve, Group.G1, "pi_a");
        VerificationKey.requireGroup(piB, curve, Group.G2, "pi_b");
        VerificationKey.requireGroup(piC, curve, Group.G1, "pi_c");
        Validate.notNull(publicSignals, "publicSignals");
        Validate.noNullElements(publicSignals, "public signal %d is null");
        publicSignals = List.copyOf(publicSignals);
    }

    /**
     * proof.json as snarkjs writes it: decimal coordinates in projective form with z = 1 (the point
     * at infinity, which a valid proof never holds, as snarkjs writes it: x = 0, y = 1, z = 0).
     */
    public String proofJson() {
        String[] a = SnarkjsText.g1Coordinates(piA);
        String[] b = SnarkjsText.g2Coordinates(piB);
        String[] c = SnarkjsText.g1Coordinates(piC);
        StringBuilder s = new StringBuilder("{\n");
        s.append(" \"pi_a\": [\n  \"").append(a[0]).append("\",\n  \"").append(a[1]).append("\",\n  \"").append(a[2]).append("\"\n ],\n");
        s.append(" \"pi_b\": [\n");
        for (int i = 0; i < 3; i++) {
            s.append("  [\n   \"").append(b[2 * i]).append("\",\n   \"").append(b[2 * i + 1]).append(i < 2 ? "\"\n  ],\n" : "\"\n  ]\n");
        }
        s.append(" ],\n");
        s.append(" \"pi_c\": [\n  \"").append(c[0]).append("\",\n  \"").append(c[1]).append("\",\n  \"").append(c[2]).append("\"\n ],\n");
        s.append(" \"protocol\": \"groth16\",\n");
        s.append(" \"curve\": \"").append(curve.snarkjsName()).append("\"\n}");
        return s.toString();
    }


    /**
     * Reads snarkjs's proof.json and public.json: every point checked (canonical, on the curve, in
     * its subgroup), every public signal below r; a malformed file gives a {@link FormatException}
     * naming the file and the field. A proof.json without a "curve" field (snarkjs never reads
     * it) is read on the curve its points lie on.
     */
    public static Proof read(Path proofJson, Path publicJson) throws IOException {
        return parse(proofJson.toString(), TextFiles.read(proofJson), publicJson.toString(), TextFiles.read(publicJson));
    }

    /** {@link #read} from the files' text; the names are for messages. */
    public static Proof parse(String proofName, String proofJson, String publicName, String publicJson) {
        return SnarkjsJson.proof(proofName, proofJson, publicName, publicJson);
    }

    /** public.json as snarkjs writes it (bfj, one space a level): the public signals as decimal strings. */
    public String publicJson() {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < publicSignals.size(); i++) {
            s.append(i == 0 ? "\n \"" : ",\n \"").append(publicSignals.get(i)).append('"');
        }
        return s.append("\n]").toString();
    }

    /**
     * Writes proof.json and public.json, both or neither ({@link OutputFiles#writeTogether}): a
     * failure leaves no proof without its public signals, and no half-written file. The bytes are
     * snarkjs's (no new line after the last bracket).
     */
    public void write(Path proofJson, Path publicJson) throws IOException {
        OutputFiles.writeTogether(List.of(proofJson, publicJson), List.of(proofJson().getBytes(StandardCharsets.UTF_8),
                publicJson().getBytes(StandardCharsets.UTF_8)));
    }
}
