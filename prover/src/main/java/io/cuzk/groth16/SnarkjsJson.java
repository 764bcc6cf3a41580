package io.cuzk.groth16;

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

    static Json tree(String name, String json) {
        try {
            Json n = Json.parse(json);
            if (n == null) {
                throw new FormatException(name, null, "empty: expected JSON");
            }
            return n;
        } catch (Json.ParseException e) {
            throw new FormatException(name, null, "not JSON (" + e.getMessage() + " at line " + e.line() + ")");
        }
    }

    static Curve curve(String name, Json root) {
        Json c = root.get("curve");
        if (c == null || !c.isTextual()) {
            throw new FormatException(name, "curve", "missing: expected \"bn128\" or \"bls12381\"");
        }
        Curve curve = curveNamed(c.asText());
        if (curve == null) {
            throw new FormatException(name, "curve", "\"" + c.asText() + "\" is not a curve cuzk knows (bn128, bls12381)");
        }
        return curve;
    }

    /**
     * The curve of a name as snarkjs reads it (getCurveFromName): upper-cased, only its letters and
     * digits kept, then BN128, BN254 or ALTBN128, or BLS12381; null for any other.
     */
    static Curve curveNamed(String name) {
        StringBuilder n = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) {
                n.append(Character.toUpperCase(ch));
            }
        }
        return switch (n.toString()) {
            case "BN128", "BN254", "ALTBN128" -> Curve.BN254;
            case "BLS12381" -> Curve.BLS12_381;
            default -> null;
        };
    }

    static void requireGroth16(String name, Json root) {
        Json p = root.get("protocol");
        if (p != null && !(p.isTextual() && "groth16".equals(p.asText()))) {
            throw new FormatException(name, "protocol", p.preview(40) + ": only groth16 is supported");
        }
    }

    /** A decimal string (or JSON integer, or a 0x string of hexadecimal digits) in [0, bound). */
    static BigInteger number(String name, String field, Json n, BigInteger bound, String boundName) {
        String s = digits(name, field, n);
        BigInteger v = value(s);
        if (v == null || v.compareTo(bound) >= 0) {
            throw new FormatException(name, field, abbreviate(s) + " is not below " + boundName);
        }
        return v;
    }

    /**
     * The value of ASCII digits, or of 0x and hexadecimal digits (either of any length: leading
     * zeros are dropped first); null when more than 200 digits are left, which no bound here
     * reaches (so that a huge number costs no BigInteger parse).
     */
    private static BigInteger value(String s) {
        boolean hex = isHex(s);
        int i = hex ? 2 : 0;
        while (i < s.length() - 1 && s.charAt(i) == '0') {
            i++;
        }
        if (s.length() - i > 200) {
            return null;
        }
        return new BigInteger(s.substring(i), hex ? 16 : 10);
    }

    /**
     * The text of a decimal string (or JSON integer): ASCII digits, or 0x and hexadecimal digits
     * (snarkjs reads both: its unstringifyBigInts, which takes nothing else, blanks included:
     * /^[0-9]+$/ and /^0x[0-9a-fA-F]+$/), else a FormatException.
     */
    private static String digits(String name, String field, Json n) {
        if (n == null || !(n.isTextual() || n.isNumber())) {
            throw new FormatException(name, field, "expected a decimal number as a string");
        }
        String s = text(n);
        if (s == null) {
            throw new FormatException(name, field, abbreviate(n.asText()) + " is not an integer (as JSON.parse reads it, which snarkjs uses)");
        }
        if (!decimalDigits(s) && !isHex(s)) {
            throw new FormatException(name, field, (n.isNumber() ? abbreviate(s) : n.preview(40))
                    + " is not a non-negative decimal number (or 0x and hexadecimal digits)");
        }
        return s;
    }

    /**
     * A string's text as it is; a JSON number's value as snarkjs has it:
     * JSON.parse makes it a double (an integer past 2^53 written without quotes is rounded, 3e2 is
     * 300), whose exact value BigInt takes, in decimal digits; null for a number that is no
     * integer (BigInt refuses it).
     */
    private static String text(Json n) {
        if (!n.isNumber()) {
            return n.asText();
        }
        if (n.isIntegralNumber() && n.asText().length() <= 15) { // below 2^53: the double is the number
            return n.asText();
        }
        double d = Double.parseDouble(n.asText());
        return Double.isFinite(d) && d == Math.rint(d) ? new java.math.BigDecimal(d).toBigIntegerExact().toString() : null;
    }

    /** 0x and hexadecimal digits (the lower-case x only, as snarkjs's reader takes them). */
    static boolean isHex(String s) {
        int n = s.length();
        if (n < 3 || s.charAt(0) != '0' || s.charAt(1) != 'x') {
            return false;
        }
        for (int i = 2; i < n; i++) {
            if (Character.digit(s.charAt(i), 16) < 0 || s.charAt(i) > 'f') {
                return false;
            }
        }
        return true;
    }

    /** One or more ASCII digits. */
    private static boolean decimalDigits(String s) {
        int n = s.length();
        if (n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return false;
            }
        }
        return true;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** A G1 point [x, y, z], checked on the curve (and in its subgroup). */
    static Point g1(String name, String field, Json n, Curve curve) {
        return g1(name, field, n, curve, Check.all());
    }

    /** A G1 point, given the checks (all, or all but the subgroup's, which a batch makes for all its proofs' points at once). */
    static Point g1(String name, String field, Json n, Curve curve, java.util.Set<Check> checks) {
        if (n == null || !n.isArray() || (n.size() != 3 && n.size() != 2)) {
            throw new FormatException(name, field, "expected a G1 point [x, y, z] of decimal strings");
        }
        long[][] c = {coordinate(name, field, 0, -1, n.get(0), curve), coordinate(name, field, 1, -1, n.get(1), curve)};
        if (n.size() == 3) {
            long[] z = coordinate(name, field, 2, -1, n.get(2), curve);
            if (isZero(z)) {
                return Point.infinity(curve, Group.G1);
            }
            if (!isOne(z)) {
                throw new FormatException(name, field, "z = " + abbreviate(n.get(2).asText())
                        + ": expected an affine point (z = 1, or z = 0 for infinity)");
            }
        }
        return checked(name, field, curve, Group.G1, checks, c);
    }

    /** A G2 point [[x0, x1], [y0, y1], [z0, z1]], checked on the twist and in its subgroup. */
    static Point g2(String name, String field, Json n, Curve curve) {
        return g2(name, field, n, curve, Check.all());
    }

    /** A G2 point, given the checks (all, or all but the subgroup's, which a verifier's pairing makes). */
    static Point g2(String name, String field, Json n, Curve curve, java.util.Set<Check> checks) {
        if (n == null || !n.isArray() || (n.size() != 3 && n.size() != 2)) {
            throw new FormatException(name, field, "expected a G2 point [[x0, x1], [y0, y1], [z0, z1]] of decimal strings");
        }
        long[][] c = new long[2 * n.size()][];
        for (int i = 0; i < n.size(); i++) {
            Json pair = n.get(i);
            if (!pair.isArray() || pair.size() != 2) {
                throw new FormatException(name, field + "[" + i + "]", "expected a pair [c0, c1] of decimal strings");
            }
            c[2 * i] = coordinate(name, field, i, 0, pair.get(0), curve);
            c[2 * i + 1] = coordinate(name, field, i, 1, pair.get(1), curve);
        }
        if (n.size() == 3) {
            if (isZero(c[4]) && isZero(c[5])) {
                return Point.infinity(curve, Group.G2);
            }
            if (!isOne(c[4]) || !isZero(c[5])) {
                throw new FormatException(name, field, "expected an affine point (z = [1, 0], or [0, 0] for infinity)");
            }
        }
        return checked(name, field, curve, Group.G2, checks, java.util.Arrays.copyOf(c, 4));
    }

    /**
     * A point's coordinate: a decimal string (or JSON integer) below p, read into little-endian
     * 64-bit words (the decimal digits 18 at a time; a point's eight numbers would otherwise be
     * most of a proof's reading). Named in messages field[i] or field[i][j] (j >= 0).
     */
    private static long[] coordinate(String name, String field, int i, int j, Json n, Curve curve) {
        String s = n != null && (n.isTextual() || n.isNumber()) ? text(n) : null;
        long[] w = new long[curve.fpBytes() / 8];
        if (s != null && decimalDigits(s) && decimalWords(s, w) && compareWords(w, modulusWords(curve)) < 0) {
            return w;
        }
        if (s != null && isHex(s)) {
            BigInteger v = value(s);
            if (v != null && v.compareTo(curve.p()) < 0) {
                for (int k = 0; k < w.length; k++) {
                    w[k] = v.shiftRight(64 * k).longValue();
                }
                return w;
            }
        }
        String where = j < 0 ? field + "[" + i + "]" : field + "[" + i + "][" + j + "]"; // named only when wrong
        digits(name, where, n); // not a number: its message
        throw new FormatException(name, where, abbreviate(s) + " is not below the field's modulus");
    }

    /** 10^18: the most decimal digits a long holds at once. */
    private static final long TEN_18 = 1_000_000_000_000_000_000L;

    /** s (digits only) as little-endian words; false when it does not fit in w. */
    static boolean decimalWords(String s, long[] w) {
        int n = s.length();
        int pos = 0;
        int chunk = n % 18 == 0 ? 18 : n % 18;
        while (pos < n) {
            long v = 0;
            long scale = 1;
            for (int k = 0; k < chunk; k++) {
                v = v * 10 + (s.charAt(pos + k) - '0');
                scale *= 10;
            }
            pos += chunk;
            chunk = 18;
            long carry = v; // w = w * scale + v
            for (int k = 0; k < w.length; k++) {
                long lo = w[k] * scale;
                long hi = Math.unsignedMultiplyHigh(w[k], scale);
                long sum = lo + carry;
                if (Long.compareUnsigned(sum, lo) < 0) {
                    hi++;
                }
                w[k] = sum;
                carry = hi;
            }
            if (carry != 0) {
                return false;
            }
        }
        return true;
    }

    private static int compareWords(long[] a, long[] b) {
        for (int k = a.length - 1; k >= 0; k--) {
            int c = Long.compareUnsigned(a[k], b[k]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static boolean isZero(long[] w) {
        for (long x : w) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isOne(long[] w) {
        for (int k = 1; k < w.length; k++) {
            if (w[k] != 0) {
                return false;
            }
        }
        return w[0] == 1;
    }

    private static final long[] BN254_P = words(Curve.BN254);
    private static final long[] BLS12_381_P = words(Curve.BLS12_381);

    private static long[] modulusWords(Curve curve) {
        return curve == Curve.BN254 ? BN254_P : BLS12_381_P;
    }

    private static long[] words(Curve curve) {
        long[] w = new long[curve.fpBytes() / 8];
        BigInteger p = curve.p();
        for (int k = 0; k < w.length; k++) {
            w[k] = p.shiftRight(64 * k).longValue();
        }
        return w;
    }

    /**
     * The point of these affine coordinates (little-endian words, each below p; G2's as x.c0,
     * x.c1, y.c0, y.c1), checked and put in Montgomery form by the native codec from the curve's
     * Ethereum encoding (big-endian integers: no division here).
     */
    private static Point checked(String name, String field, Curve curve, Group group, java.util.Set<Check> checks, long[]... coordinates) {
        Encoding e = Encoding.ethereum(curve);
        int width = e.pointBytes(curve, group) / coordinates.length;
        byte[] encoded = new byte[e.pointBytes(curve, group)];
        for (int i = 0; i < coordinates.length; i++) {
            // EIP-197 puts each G2 coordinate's imaginary part first
            int slot = group == Group.G2 && e == Encoding.EIP196 ? i ^ 1 : i;
            long[] w = coordinates[i];
            int end = (slot + 1) * width; // big-endian: the lowest word last
            for (int k = 0; k < w.length; k++) {
                long x = w[k];
                for (int b = 0; b < 8; b++) {
                    encoded[end - 1 - 8 * k - b] = (byte) (x >>> (8 * b));
                }
            }
        }
        try {
            return Codec.decode(curve, group, e, encoded, checks);
        } catch (InvalidPointException ex) {
            throw new FormatException(name, field, "not a valid " + curve.cliName() + " " + group + " point: " + ex.reason());
        }
    }

    /** verification_key.json. */
    static VerificationKey verificationKey(String name, String json) {
        org.apache.commons.lang3.Validate.notNull(json, "the text of %s", name);
        Json root = tree(name, json);
        requireGroth16(name, root);
        Curve curve = curve(name, root);
        Json ic = root.get("IC");
        if (ic == null || !ic.isArray()) {
            throw new FormatException(name, "IC", (ic == null ? "missing" : "not an array") + ": expected the IC points (G1), one for the "
                    + "constant 1 and one per public signal");
        }
        if (ic.isEmpty()) {
            throw new FormatException(name, "IC", "empty: expected one point for the constant 1 and one per public signal");
        }
        Json np = root.get("nPublic");
        if (np != null) { // snarkjs's verify never reads it; a file that contradicts itself is refused
            String n = np.isNumber() ? text(np) : null;
            if (n == null) {
                throw new FormatException(name, "nPublic", np.preview(40) + " is not a whole number (a JSON number)");
            }
            if (!n.equals(Integer.toString(ic.size() - 1))) {
                throw new FormatException(name, "nPublic", abbreviate(n) + " public signal" + (n.equals("1") ? "" : "s") + ", but IC holds "
                        + ic.size() + " point" + (ic.size() == 1 ? "" : "s") + " (one for the constant 1 and one per public signal)");
            }
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < ic.size(); i++) {
            points.add(g1(name, "IC[" + i + "]", ic.get(i), curve));
        }
        Point alpha = finite(name, "vk_alpha_1", g1(name, "vk_alpha_1", root.get("vk_alpha_1"), curve));
        Point beta = finite(name, "vk_beta_2", g2(name, "vk_beta_2", root.get("vk_beta_2"), curve));
        Point gamma = finite(name, "vk_gamma_2", g2(name, "vk_gamma_2", root.get("vk_gamma_2"), curve));
        Point delta = finite(name, "vk_delta_2", g2(name, "vk_delta_2", root.get("vk_delta_2"), curve));
        return new VerificationKey(curve, ic.size() - 1, alpha, beta, gamma, delta, points);
    }

    /**
     * A key point that must not be the point at infinity: no setup makes one, and with alpha, beta,
     * gamma or delta at infinity proofs of any public signals can be made to verify (gamma's
     * unbinds the public signals, for instance); snarkjs's verify answers such proofs invalid.
     */
    private static Point finite(String name, String field, Point p) {
        if (p.isInfinity()) {
            throw new FormatException(name, field, "the point at infinity: no setup makes it, and with it proofs of any public signals "
                    + "would verify");
        }
        return p;
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
        return proof(proofName, proofJson, publicName, publicJson, bInG2, null);
    }

    /**
     * proof.json with its public.json, for a verification key of the curve keyCurve (null: none):
     * as snarkjs, which reads the points on the key's curve, the proof is read on it whatever its
     * "curve" field holds, except that a field naming the other curve is an
     * {@link IllegalArgumentException} saying so (before its points are read, whose messages would
     * blame the numbers instead).
     */
    static Proof proof(String proofName, String proofJson, String publicName, String publicJson, boolean bInG2, Curve keyCurve) {
        return proof(proofName, proofJson, publicName, publicJson, bInG2, keyCurve, true);
    }

    /**
     * The same, with acInG1 false reading pi_a and pi_c without their subgroup check, for a batch
     * that checks every proof's points in one call (eight at a time where the library can) and
     * reads again, with every check, a proof whose points fail it (its message is then this one's).
     */
    static Proof proof(String proofName, String proofJson, String publicName, String publicJson, boolean bInG2, Curve keyCurve,
            boolean acInG1) {
        org.apache.commons.lang3.Validate.notNull(proofJson, "the text of %s", proofName);
        org.apache.commons.lang3.Validate.notNull(publicJson, "the text of %s", publicName);
        Json root = tree(proofName, proofJson);
        requireGroth16(proofName, root);
        Curve curve;
        Json field = root.get("curve");
        Curve named = field != null && field.isTextual() ? curveNamed(field.asText()) : null;
        if (keyCurve != null) {
            // snarkjs reads the points on the key's curve and never looks at the proof's field;
            // one that names the other curve is said, the rest (none, null, a name no one knows) ignored
            if (named != null && named != keyCurve) {
                throw new IllegalArgumentException(proofName + " is a " + named.snarkjsName() + " proof, the verification key is for "
                        + keyCurve.snarkjsName());
            }
            curve = keyCurve;
        } else if (named == null) {
            if (root.get("pi_a") == null && root.get("pi_b") == null && root.get("pi_c") == null) {
                throw new FormatException(proofName, null, "not a proof: it has no pi_a, pi_b or pi_c");
            }
            // no curve field, or one naming no curve (snarkjs's verify and soliditycalldata never
            // read it): the curve its points lie on, BN254's tried first (a point of one curve is not on the other but by chance)
            try {
                return proof(proofName, proofJson, publicName, publicJson, bInG2, Curve.BN254, acInG1);
            } catch (FormatException bn) {
                if (!proofName.equals(bn.file())) {
                    throw bn; // public.json at fault
                }
                try {
                    return proof(proofName, proofJson, publicName, publicJson, bInG2, Curve.BLS12_381, acInG1);
                } catch (FormatException bls) {
                    if (!proofName.equals(bls.file())) {
                        throw bls;
                    }
                    String label = field == null ? "missing" : field.preview(40) + " names no curve cuzk knows";
                    throw new FormatException(proofName, "curve", label + ", and the points are on neither curve (as bn128: "
                            + bn.getMessage() + "; as bls12381: " + bls.getMessage() + ")");
                }
            }
        } else {
            curve = named;
        }
        java.util.Set<Check> noSubgroup = java.util.EnumSet.complementOf(java.util.EnumSet.of(Check.SUBGROUP));
        Point a = g1(proofName, "pi_a", root.get("pi_a"), curve, acInG1 ? Check.all() : noSubgroup);
        Point b = g2(proofName, "pi_b", root.get("pi_b"), curve, bInG2 ? Check.all() : noSubgroup);
        Point c = g1(proofName, "pi_c", root.get("pi_c"), curve, acInG1 ? Check.all() : noSubgroup);
        return new Proof(curve, a, b, c, publicSignals(publicName, publicJson, curve));
    }

    /** public.json: an array of decimal strings, each below r. */
    static List<BigInteger> publicSignals(String name, String json, Curve curve) {
        Json root = tree(name, json);
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
