package io.cuzk.groth16;

import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Pairing;
import io.cuzk.Point;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * A Groth16 verification key: alpha in G1, beta, gamma and delta in G2, and the IC points (one
 * for the constant 1, one per public signal). Read from snarkjs's {@code verification_key.json}
 * (every point checked: on the curve and in its subgroup) or taken from a proving key, and written
 * in snarkjs's form, {@code vk_alphabeta_12} (e(alpha, beta)) included.
 */
public record VerificationKey(Curve curve, int nPublic, Point alpha1, Point beta2, Point gamma2, Point delta2, List<Point> ic) {
    /**
     * A key from its parts: alpha and the IC points in the curve's G1, beta, gamma and delta in its
     * G2, none of the four at infinity, nPublic + 1 IC points; an {@link IllegalArgumentException}
     * naming what is not (a NullPointerException for a null). Whether the points lie on their
     * curves and in their subgroups is checked when a verification first uses the key.
     */
    public VerificationKey {
        Validate.notNull(curve, "curve");
        Validate.isTrue(nPublic >= 0, "nPublic is %d: a count of public signals is not negative", nPublic);
        requireGroup(alpha1, curve, Group.G1, "vk_alpha_1");
        requireGroup(beta2, curve, Group.G2, "vk_beta_2");
        requireGroup(gamma2, curve, Group.G2, "vk_gamma_2");
        requireGroup(delta2, curve, Group.G2, "vk_delta_2");
        Validate.notNull(ic, "ic");
        for (int i = 0; i < ic.size(); i++) {
            requireGroup(ic.get(i), curve, Group.G1, "IC[" + i + "]");
        }
        ic = List.copyOf(ic);
        Validate.isTrue(ic.size() == nPublic + 1, "%d IC points for %d public signals: expected %d", ic.size(), nPublic, nPublic + 1);
        // at infinity, any of them lets proofs of any public signals verify (as the reader says)
        Validate.isTrue(!alpha1.isInfinity() && !beta2.isInfinity() && !gamma2.isInfinity() && !delta2.isInfinity(),
                "alpha, beta, gamma and delta must not be the point at infinity: with one of them there, proofs of any public signals "
                        + "would verify");
    }

    /** The verification key of a proving key (what {@code snarkjs zkey export verificationkey} writes). */
    public static VerificationKey of(ProvingKey key) {
        List<Point> ic = new ArrayList<>();
        for (long i = 0; i < key.ic().size(); i++) {
            ic.add(key.ic().get(i));
        }
        return new VerificationKey(key.curve(), key.nPublic(), key.alpha1(), key.beta2(), key.gamma2(), key.delta2(), ic);
    }

    /** Reads and checks snarkjs's verification_key.json. */
    public static VerificationKey read(Path json) throws IOException {
        return parse(json.toString(), TextFiles.read(json));
    }

    /** Parses and checks a verification key in snarkjs's JSON; name is for messages. */
    public static VerificationKey parse(String name, String json) {
        return SnarkjsJson.verificationKey(name, json);
    }

    /** e(alpha, beta) as snarkjs writes it (vk_alphabeta_12), its 12 Fp coefficients. */
    public BigInteger[] alphaBeta() {
        return Pairing.product(List.of(alpha1), List.of(beta2));
    }

    /** verification_key.json as snarkjs writes it. */
    public String toJson() {
        StringBuilder s = new StringBuilder("{\n");
        s.append(" \"protocol\": \"groth16\",\n");
        s.append(" \"curve\": \"").append(curve.snarkjsName()).append("\",\n");
        s.append(" \"nPublic\": ").append(nPublic).append(",\n");
        s.append(" \"vk_alpha_1\": ").append(SnarkjsText.g1(alpha1, "  ")).append(",\n");
        s.append(" \"vk_beta_2\": ").append(SnarkjsText.g2(beta2, "  ")).append(",\n");
        s.append(" \"vk_gamma_2\": ").append(SnarkjsText.g2(gamma2, "  ")).append(",\n");
        s.append(" \"vk_delta_2\": ").append(SnarkjsText.g2(delta2, "  ")).append(",\n");
        BigInteger[] ab = alphaBeta();
        s.append(" \"vk_alphabeta_12\": [\n");
        for (int half = 0; half < 2; half++) {
            s.append("  [\n");
            for (int c = 0; c < 3; c++) {
                int i = 6 * half + 2 * c;
                s.append("   [\n    \"").append(ab[i]).append("\",\n    \"").append(ab[i + 1]).append("\"\n   ]").append(c < 2 ? ",\n" : "\n");
            }
            s.append("  ]").append(half == 0 ? ",\n" : "\n");
        }
        s.append(" ],\n");
        s.append(" \"IC\": [\n");
        for (int i = 0; i < ic.size(); i++) {
            s.append("  ").append(SnarkjsText.g1(ic.get(i), "   ")).append(i + 1 < ic.size() ? ",\n" : "\n");
        }
        return s.append(" ]\n}").toString();
    }

    static void requireGroup(Point p, Curve c, Group g, String what) {
        Validate.notNull(p, "%s is null", what);
        Validate.isTrue(p.curve() == c && p.group() == g, "%s must be a %s %s point, not a %s %s one", what, c.cliName(), g,
                p.curve().cliName(), p.group());
    }
}
