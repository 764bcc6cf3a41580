package io.cuzk.groth16;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.InvalidPointException;
import io.cuzk.Point;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * snarkjs's JSON files: proof.json, public.json and verification_key.json. Points are decimal
 * coordinates in projective form with z = 1 (infinity: x = 0, y = 1, z = 0; G2 coordinates as
 * [c0, c1] pairs); reading checks each one is canonical, on its curve and in its subgroup, and
 * names the field at fault.
 */
final class SnarkjsJson {
    private SnarkjsJson() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode tree(String name, String json) {
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || n.isMissingNode()) {
                throw new FormatException(name, null, "empty: expected JSON");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new FormatException(name, null, "not JSON (" + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ")");
        }
    }

    static Curve curve(String name, JsonNode root) {
        JsonNode c = root.get("curve");
        if (c == null || !c.isTextual()) {
            throw new FormatException(name, "curve", "missing: expected \"bn128\" or \"bls12381\"");
        }
        try {
            return Curve.parse(c.asText());
        } catch (IllegalArgumentException e) {
            throw new FormatException(name, "curve", "\"" + c.asText() + "\" is not a curve cuzk knows (bn128, bls12381)");
        }
    }

    static void requireGroth16(String name, JsonNode root) {
        JsonNode p = root.get("protocol");
        if (p != null && !"groth16".equals(p.asText())) {
            throw new FormatException(name, "protocol", "\"" + p.asText() + "\": only groth16 is supported");
        }
    }

    /** A decimal string (or JSON integer) in [0, bound). */
    static BigInteger number(String name, String field, JsonNode n, BigInteger bound, String boundName) {
        if (n == null || !(n.isTextual() || n.isIntegralNumber())) {
            throw new FormatException(name, field, "expected a decimal number as a string");
        }
        String s = n.asText().trim();
        BigInteger v;
        try {
            if (s.isEmpty() || s.length() > 200 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                throw new NumberFormatException();
            }
            v = new BigInteger(s);
        } catch (NumberFormatException e) {
            throw new FormatException(name, field, "\"" + abbreviate(s) + "\" is not a non-negative decimal number");
        }
        if (v.compareTo(bound) >= 0) {
            throw new FormatException(name, field, abbreviate(s) + " is not below " + boundName);
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** A G1 point [x, y, z], checked on the curve (and in its subgroup). */
    static Point g1(String name, String field, JsonNode n, Curve curve) {
        if (n == null || !n.isArray() || (n.size() != 3 && n.size() != 2)) {
            throw new FormatException(name, field, "expected a G1 point [x, y, z] of decimal strings");
        }
        BigInteger p = curve.p();
        BigInteger x = number(name, field + "[0]", n.get(0), p, "the field's modulus");
        BigInteger y = number(name, field + "[1]", n.get(1), p, "the field's modulus");
        BigInteger z = n.size() == 3 ? number(name, field + "[2]", n.get(2), p, "the field's modulus") : BigInteger.ONE;
        if (z.signum() == 0) {
            return Point.infinity(curve, Group.G1);
        }
        if (!z.equals(BigInteger.ONE)) {
            throw new FormatException(name, field, "z = " + abbreviate(z.toString()) + ": expected an affine point (z = 1, or z = 0 for infinity)");
        }
        return checked(name, field, Point.ofCoordinates(curve, Group.G1, x, y));
    }

    /** A G2 point [[x0, x1], [y0, y1], [z0, z1]], checked on the twist and in its subgroup. */
    static Point g2(String name, String field, JsonNode n, Curve curve) {
        return g2(name, field, n, curve, Check.all());
    }

    /** A G2 point, given the checks (all, or all but the subgroup's, which a verifier's pairing makes). */
    static Point g2(String name, String field, JsonNode n, Curve curve, java.util.Set<Check> checks) {
        if (n == null || !n.isArray() || (n.size() != 3 && n.size() != 2)) {
            throw new FormatException(name, field, "expected a G2 point [[x0, x1], [y0, y1], [z0, z1]] of decimal strings");
        }
        BigInteger[][] c = new BigInteger[n.size()][];
        for (int i = 0; i < n.size(); i++) {
            JsonNode pair = n.get(i);
            if (!pair.isArray() || pair.size() != 2) {
                throw new FormatException(name, field + "[" + i + "]", "expected a pair [c0, c1] of decimal strings");
            }
            c[i] = new BigInteger[] {number(name, field + "[" + i + "][0]", pair.get(0), curve.p(), "the field's modulus"),
                number(name, field + "[" + i + "][1]", pair.get(1), curve.p(), "the field's modulus")};
        }
        if (c.length == 3) {
            if (c[2][0].signum() == 0 && c[2][1].signum() == 0) {
                return Point.infinity(curve, Group.G2);
            }
            if (!c[2][0].equals(BigInteger.ONE) || c[2][1].signum() != 0) {
                throw new FormatException(name, field, "expected an affine point (z = [1, 0], or [0, 0] for infinity)");
            }
        }
        return checked(name, field, Point.ofCoordinates(curve, Group.G2, c[0][0], c[0][1], c[1][0], c[1][1]), checks);
    }

    private static Point checked(String name, String field, Point p) {
        return checked(name, field, p, Check.all());
    }

    private static Point checked(String name, String field, Point p, java.util.Set<Check> checks) {
        try {
            return Codec.decode(p.curve(), p.group(), Encoding.NATIVE, p.nativeBytes(), checks);
        } catch (InvalidPointException e) {
            throw new FormatException(name, field, "not a valid " + p.curve().cliName() + " " + p.group() + " point: " + e.getMessage());
        }
    }

    /** verification_key.json. */
    static VerificationKey verificationKey(String name, String json) {
        JsonNode root = tree(name, json);
        requireGroth16(name, root);
        Curve curve = curve(name, root);
        JsonNode ic = root.get("IC");
        if (ic == null || !ic.isArray() || ic.isEmpty()) {
            throw new FormatException(name, "IC", "missing: expected the IC points");
        }
        JsonNode np = root.get("nPublic");
        if (np != null && (!np.canConvertToInt() || np.asInt() != ic.size() - 1)) {
            throw new FormatException(name, "nPublic", np + " public signals, but " + ic.size() + " IC points (expected one more)");
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < ic.size(); i++) {
            points.add(g1(name, "IC[" + i + "]", ic.get(i), curve));
        }
        return new VerificationKey(curve, ic.size() - 1, g1(name, "vk_alpha_1", root.get("vk_alpha_1"), curve),
                g2(name, "vk_beta_2", root.get("vk_beta_2"), curve), g2(name, "vk_gamma_2", root.get("vk_gamma_2"), curve),
                g2(name, "vk_delta_2", root.get("vk_delta_2"), curve), points);
    }

    /** proof.json with its public.json. */
    static Proof proof(String proofName, String proofJson, String publicName, String publicJson) {
        return proof(proofName, proofJson, publicName, publicJson, true);
    }

    /**
     * proof.json with its public.json; with bInG2 false, pi_b is checked on the twist but not in
     * its subgroup (for {@link Groth16Verifier}, whose pairing checks that: the Proof never leaves
     * it).
     */
    static Proof proof(String proofName, String proofJson, String publicName, String publicJson, boolean bInG2) {
        JsonNode root = tree(proofName, proofJson);
        requireGroth16(proofName, root);
        Curve curve = curve(proofName, root);
        Point a = g1(proofName, "pi_a", root.get("pi_a"), curve);
        Point b = g2(proofName, "pi_b", root.get("pi_b"), curve,
                bInG2 ? Check.all() : java.util.EnumSet.complementOf(java.util.EnumSet.of(Check.SUBGROUP)));
        Point c = g1(proofName, "pi_c", root.get("pi_c"), curve);
        return new Proof(curve, a, b, c, publicSignals(publicName, publicJson, curve));
    }

    /** public.json: an array of decimal strings, each below r. */
    static List<BigInteger> publicSignals(String name, String json, Curve curve) {
        JsonNode root = tree(name, json);
        if (!root.isArray()) {
            throw new FormatException(name, null, "expected an array of decimal strings (the public signals)");
        }
        List<BigInteger> out = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            out.add(number(name, "[" + i + "]", root.get(i), curve.r(), "the scalar field's modulus r"));
        }
        return out;
    }
}
