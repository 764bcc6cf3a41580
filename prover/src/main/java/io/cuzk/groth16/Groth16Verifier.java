package io.cuzk.groth16;

import io.cuzk.Curve;
import io.cuzk.FixedBases;
import io.cuzk.Group;
import io.cuzk.Pairing;
import io.cuzk.Point;
import io.cuzk.Points;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * Groth16 verification as snarkjs does it, with the native pairings: a proof (A, B, C) of public
 * signals s is valid for a key when e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta) with
 * L = IC[0] + sum s[i] IC[i + 1], checked as one product of four pairings against one. Proofs
 * read through {@link Proof#read} and keys through {@link VerificationKey#read} have every point
 * checked (on the curve, in its subgroup); the verifier checks that the proof and the key agree
 * (curve, number of public signals) and that every signal is below r.
 *
 * <p>Every method may be called from any number of threads at once: keys and proofs are immutable,
 * and the keys' prepared parts are kept in a shared cache.
 */
public final class Groth16Verifier {
    private Groth16Verifier() {}

    /**
     * True when the proof is valid for the key; a mismatch of curve or signal count, or a public
     * signal outside [0, r), is an {@link IllegalArgumentException} (snarkjs answers such a proof
     * invalid; cuzk's readers refuse such files as malformed). From a key's second verification on
     * (in this process, among the last {@value #PREPARED_KEYS} keys), the key's part is reused: the
     * Miller loop of its pair (-alpha, beta), the lines of gamma and delta and the multiples of its
     * IC points, so a proof costs one pair's loop and two pairs' line products instead of four pairs'
     * loops, and L a third of its sum; the same answer. The pairing also checks that B is in G2 (from
     * the point its Miller loop ends on, a few products). A proof made with {@link Proof}'s
     * constructor from points no reader checked gets its points checked here: A and C on the curve, B
     * on the twist (a few products each) and in G2 (by the pairing); one that is not is a {@link
     * FormatException} naming the field, as for a read proof. (A or C on the curve but outside G1's
     * subgroup, possible on BLS12-381 only, are refused by the readers; here their part of the
     * cofactor's order pairs to one, so the answer is A's and C's in G1.) The key's points are
     * checked the same way when the verifier first sees the key (IC and alpha on the curve, beta,
     * gamma and delta on the twist and in G2): one outside is an {@link IllegalArgumentException}
     * naming it, at every verification with that key.
     */
    public static boolean verify(VerificationKey vk, Proof proof) {
        requireMatch(vk, proof, "the proof");
        requireOnCurves(vk.curve(), List.of(proof), List.of("the proof"));
        return verify(vk, proof, "the proof");
    }

    /**
     * Reads a proof from its proof.json and public.json text, as {@link Proof#parse} does, and
     * verifies it: the same answer, and the same {@link FormatException} for malformed input (a
     * point off its curve or outside its subgroup, a signal not below r), but B's subgroup check is
     * made by the pairing, from the point B's own Miller loop ends on
     * ({@link Pairing#isOneCheckingG2}), instead of a scalar multiplication of its own: about a
     * quarter of a verification less. A proof that does not fit the key is an
     * {@link IllegalArgumentException}, as for {@link #verify(VerificationKey, Proof)}; as snarkjs
     * reads it, a proof.json without a "curve" field is read on the key's curve, and one naming the
     * other curve does not fit (said before its points are read).
     */
    public static boolean verifyJson(VerificationKey vk, String proofName, String proofJson, String publicName, String publicJson) {
        Validate.notNull(vk, "verification key");
        Proof proof = SnarkjsJson.proof(proofName, proofJson, publicName, publicJson, false, vk.curve());
        requireMatch(vk, proof, proofName + " with " + publicName); // named as verifyBatchJson names it
        return verify(vk, proof, proofName);
    }

    /** {@link #verifyJson} of the files proof.json and public.json. */
    public static boolean verifyFiles(VerificationKey vk, java.nio.file.Path proofJson, java.nio.file.Path publicJson)
            throws java.io.IOException {
        Validate.notNull(proofJson, "proofJson");
        Validate.notNull(publicJson, "publicJson");
        return verifyJson(vk, proofJson.toString(), TextFiles.read(proofJson), publicJson.toString(), TextFiles.read(publicJson));
    }

    /** A proof as the text of its files (the names are for messages), for {@link #verifyBatchJson}. */
    public record ProofJson(String proofName, String proofJson, String publicName, String publicJson) {}

    /**
     * {@link #verifyBatch(VerificationKey, List)} of proofs read from their files' text, as
     * {@link #verifyJson} reads them (B's subgroup checks made by the pairings); a malformed
     * proof is a {@link FormatException} naming its file, before any proof is verified, or, for a
     * B outside its subgroup, when the batch's pairing finds it. The proofs are read in parallel
     * (on the common fork-join pool), their A and C checked in G1 together (for BLS12-381, eight at
     * a time where the library can), and the malformed proof reported is the first in the list's
     * order, with the message it gets read alone.
     */
    public static BatchResult verifyBatchJson(VerificationKey vk, List<ProofJson> proofs) {
        return verifyBatchJson(vk, proofs, SystemRandom.create());
    }

    /** {@link #verifyBatchJson(VerificationKey, List)} with the given generator of the coefficients. */
    public static BatchResult verifyBatchJson(VerificationKey vk, List<ProofJson> proofs, SecureRandom random) {
        Validate.notNull(vk, "verification key");
        Validate.notNull(proofs, "proofs");
        Validate.notNull(random, "random");
        int n = proofs.size();
        Proof[] read = new Proof[n];
        RuntimeException[] failed = new RuntimeException[n];
        // A and C are read without their subgroup checks, which are made below for all the proofs
        // in one call
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            try {
                ProofJson p = Validate.notNull(proofs.get(i), "proof %d", i);
                read[i] = SnarkjsJson.proof(p.proofName(), p.proofJson(), p.publicName(), p.publicJson(), false, vk.curve(), false);
                // named with its public signals: a signal count is the pair's
                requireMatch(vk, read[i], p.proofName() + " with " + p.publicName());
            } catch (RuntimeException e) {
                failed[i] = e;
            }
        });
        int first = 0;
        while (first < n && failed[first] == null) {
            first++;
        }
        first = firstOutsideG1(vk.curve(), read, first);
        if (first < n) { // read again with every check, for the message a proof read alone gets
            ProofJson p = proofs.get(first);
            if (p != null) {
                SnarkjsJson.proof(p.proofName(), p.proofJson(), p.publicName(), p.publicJson(), false, vk.curve());
            }
            throw failed[first] != null ? failed[first]
                    : new IllegalStateException("proof " + first + ": a point failed the batch's subgroup check but not its own");
        }
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(proofs.get(i).proofName());
        }
        return verifyBatch(vk, List.of(read), random, names);
    }

    /**
     * The first of the first count proofs whose A or C is not in G1 (count when all are), their
     * points checked in one call: BLS12-381's membership tests eight at a time where the library
     * has AVX-512 IFMA (read one at a time, they were a quarter of a batch's work). BN254's G1 is
     * its whole curve, which reading checked.
     */
    private static int firstOutsideG1(Curve curve, Proof[] read, int count) {
        if (count == 0 || curve == Curve.BN254) {
            return count;
        }
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            io.cuzk.PointVector points = io.cuzk.PointVector.allocate(arena, curve, Group.G1, 2 * count);
            for (int j = 0; j < count; j++) {
                points.set(2 * j, read[j].piA());
                points.set(2 * j + 1, read[j].piC());
            }
            points.check(io.cuzk.Check.all());
            return count;
        } catch (io.cuzk.InvalidPointException e) {
            return (int) (e.index() / 2);
        }
    }

    /**
     * verify of a proof that fits the key (requireMatch), the pairing checking that B is in G2;
     * name (the proof's file) is for the message when it is not.
     */
    private static boolean verify(VerificationKey vk, Proof proof, String name) {
        Prepared key = prepared(vk);
        if (key == null) { // a key seen first: four pairs in one loop cost less than preparing its part
            Point l = linearCombination(vk, proof.publicSignals());
            boolean valid = outcome(Pairing.isOneCheckingG2(List.of(proof.piA(), vk.alpha1().negated(), l.negated(), proof.piC().negated()),
                    List.of(proof.piB(), vk.beta2(), vk.gamma2(), vk.delta2()), List.of(), null, null), List.of(name), vk.curve());
            seen(vk); // its G2 points are in G2: the pairing said so
            return valid;
        }
        Point l = key.linearCombination(vk, icScalars(proof.publicSignals()));
        return outcome(Pairing.isOneCheckingG2(List.of(proof.piA()), List.of(proof.piB()),
                List.of(Point.infinity(vk.curve(), Group.G1), l.negated(), proof.piC().negated()), key.lines(), key.alphaBeta()),
                List.of(name), vk.curve());
    }

    /**
     * The product's answer, or the FormatException of the first pair whose B is outside G2; the
     * pairs past the names' count are the key's beta, gamma and delta (unprepared: a key seen
     * first), whose point outside G2 is an IllegalArgumentException.
     */
    private static boolean outcome(Pairing.G2Checked c, List<String> bNames, Curve curve) {
        if (c.outsideG2() >= 0 && c.outsideG2() < bNames.size()) { // the words of the reader's own check
            throw new FormatException(bNames.get(c.outsideG2()), "pi_b", notValid(curve, Group.G2, io.cuzk.Status.NOT_IN_SUBGROUP));
        }
        if (c.outsideG2() >= 0) {
            int k = c.outsideG2() - bNames.size();
            throw new IllegalArgumentException("the verification key's " + (k == 0 ? "vk_beta_2" : k == 1 ? "vk_gamma_2" : "vk_delta_2") + " is "
                    + notValid(curve, Group.G2, io.cuzk.Status.NOT_IN_SUBGROUP));
        }
        return c.one();
    }

    /** "not a valid bn254 G2 point: " and the reason, the readers' words. */
    private static String notValid(Curve curve, Group group, io.cuzk.Status why) {
        return "not a valid " + curve.cliName() + " " + group + " point: " + io.cuzk.InvalidPointException.reason(why);
    }

    /** Coordinates below p and the curve's equation, for points no reader checked. */
    private static final java.util.Set<io.cuzk.Check> ON_CURVE = java.util.EnumSet.of(io.cuzk.Check.CANONICAL, io.cuzk.Check.ON_CURVE);

    /**
     * The points of proofs made with Proof's constructor (which checks none; the proofs fit the
     * key: requireMatch), two native calls for all of them: A and C on G1's curve, B on the twist
     * (B's subgroup is the pairing's check); the first proof with a point off its curve is a
     * FormatException naming it (names[j]) and the field.
     */
    private static void requireOnCurves(Curve curve, List<Proof> proofs, List<String> names) {
        int n = proofs.size();
        if (n == 0) {
            return;
        }
        io.cuzk.InvalidPointException g1Off, g2Off;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            io.cuzk.PointVector g1 = io.cuzk.PointVector.allocate(arena, curve, Group.G1, 2L * n); // A_0, C_0, A_1, C_1, ...
            io.cuzk.PointVector g2 = io.cuzk.PointVector.allocate(arena, curve, Group.G2, n);
            for (int j = 0; j < n; j++) {
                Proof p = proofs.get(j);
                g1.set(2L * j, p.piA());
                g1.set(2L * j + 1, p.piC());
                g2.set(j, p.piB());
            }
            g1Off = firstOffCurve(g1);
            g2Off = firstOffCurve(g2);
        }
        if (g1Off != null && (g2Off == null || g1Off.index() / 2 <= g2Off.index())) {
            throw new FormatException(names.get((int) (g1Off.index() / 2)), g1Off.index() % 2 == 0 ? "pi_a" : "pi_c",
                    notValid(curve, Group.G1, g1Off.status()));
        }
        if (g2Off != null) {
            throw new FormatException(names.get((int) g2Off.index()), "pi_b", notValid(curve, Group.G2, g2Off.status()));
        }
    }

    /** The failure of the vector's first point off its curve (or not canonical), or null when there is none. */
    private static io.cuzk.InvalidPointException firstOffCurve(io.cuzk.PointVector v) {
        try {
            v.check(ON_CURVE);
            return null;
        } catch (io.cuzk.InvalidPointException e) {
            return e;
        }
    }

    /**
     * A key's points, when the verifier first sees the key (it may have been made with
     * VerificationKey's constructor, which checks the points' curves and groups, and that alpha,
     * beta, gamma and delta are not at infinity, not their coordinates): alpha and the IC points
     * on G1's curve, beta, gamma and delta on the twist (their subgroup is the first
     * verification's pairing's check); an IllegalArgumentException naming the first one that is
     * not.
     */
    private static void requireOnCurves(VerificationKey vk) {
        Curve curve = vk.curve();
        String[] g2Names = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
        io.cuzk.InvalidPointException g1Off, g2Off;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            io.cuzk.PointVector g1 = io.cuzk.PointVector.allocate(arena, curve, Group.G1, 1L + vk.ic().size()); // alpha, IC[0], ...
            io.cuzk.PointVector g2 = io.cuzk.PointVector.allocate(arena, curve, Group.G2, 3);
            g1.set(0, vk.alpha1());
            for (int i = 0; i < vk.ic().size(); i++) {
                g1.set(1L + i, vk.ic().get(i));
            }
            List<Point> g2s = List.of(vk.beta2(), vk.gamma2(), vk.delta2());
            for (int i = 0; i < 3; i++) {
                g2.set(i, g2s.get(i));
            }
            g1Off = firstOffCurve(g1);
            g2Off = firstOffCurve(g2);
        }
        if (g1Off != null) {
            String what = g1Off.index() == 0 ? "vk_alpha_1" : "IC[" + (g1Off.index() - 1) + "]";
            throw new IllegalArgumentException("the verification key's " + what + " is " + notValid(curve, Group.G1, g1Off.status()), g1Off);
        }
        if (g2Off != null) {
            throw new IllegalArgumentException("the verification key's " + g2Names[(int) g2Off.index()] + " is "
                    + notValid(curve, Group.G2, g2Off.status()), g2Off);
        }
    }

    /** Keys whose part is kept, at most (the least recently used goes first). */
    public static final int PREPARED_KEYS = 32;

    /**
     * A key's part of every verification: the loop of (-alpha, beta); the lines of beta, gamma and
     * delta; the multiples of the IC points, for L, where the key has at most
     * {@value #FIXED_IC_POINTS} (49 KiB of memory an IC point on BLS12-381; null beyond).
     */
    private record Prepared(Pairing.MillerValue alphaBeta, Pairing.PreparedG2 lines, FixedBases ic) {
        /** L = IC[0] + sum s[i] IC[i + 1]. */
        Point linearCombination(VerificationKey vk, List<BigInteger> scalars) {
            return ic != null ? ic.sum(scalars) : Points.sum(vk.ic(), scalars);
        }
    }

    /** The most IC points (public signals + 1) whose multiples a prepared key keeps. */
    static final int FIXED_IC_POINTS = 16;

    /** Per key: empty once verified with (its G2 points then known to be in G2), then its part. */
    private static final java.util.Map<VerificationKey, java.util.Optional<Prepared>> PREPARED =
            new java.util.LinkedHashMap<>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<VerificationKey, java.util.Optional<Prepared>> e) {
                    return size() > PREPARED_KEYS;
                }
            };

    /**
     * The key's part from its second verification on; null at its first (or while it is not
     * {@link #seen}), its points then checked on their curves (requireOnCurves). A key whose G2
     * point is outside G2 is never seen: every verification with it says so.
     */
    private static Prepared prepared(VerificationKey vk) {
        java.util.Optional<Prepared> known;
        synchronized (PREPARED) {
            known = PREPARED.get(vk);
        }
        if (known == null) {
            requireOnCurves(vk);
            return null;
        }
        if (known.isPresent()) {
            return known.get();
        }
        // computed outside the lock (two threads may both compute it: the same value)
        Prepared p = new Prepared(Pairing.millerLoop(List.of(vk.alpha1().negated()), List.of(vk.beta2())),
                Pairing.prepare(List.of(vk.beta2(), vk.gamma2(), vk.delta2())),
                vk.ic().size() <= FIXED_IC_POINTS ? FixedBases.of(vk.ic()) : null);
        synchronized (PREPARED) {
            PREPARED.put(vk, java.util.Optional.of(p));
        }
        return p;
    }

    /** After a verification with a key not prepared yet: its G2 points are in G2 (the pairing checked them). */
    private static void seen(VerificationKey vk) {
        synchronized (PREPARED) {
            PREPARED.putIfAbsent(vk, java.util.Optional.empty());
        }
    }

    /**
     * The outcome of a batch: valid when every proof is; else the indexes of the invalid ones.
     *
     * @param pairingProducts the products of pairings computed (one for the whole batch when it is
     *     valid; more where bisection looked for the invalid proofs)
     */
    public record BatchResult(boolean valid, List<Integer> invalid, int pairingProducts) {
        public BatchResult {
            invalid = List.copyOf(invalid);
        }
    }

    /**
     * Verifies many proofs of one key at the cost of about one pairing each: a random linear
     * combination with coefficients r_j from 128 bits of the operating system's generator (r_j =
     * a_j + b_j lambda with 64-bit halves, 2^128 distinct values, so that G1's multiplication by
     * the curve's endomorphism costs a 64-bit double multiplication),
     * prod e(r_j A_j, B_j) = e(sum r_j alpha, beta) e(sum r_j L_j, gamma) e(sum r_j C_j, delta),
     * one product of n + 3 pairings. A batch with an invalid proof passes with probability at most
     * 2^-128; when it fails, halves are verified in turn (bisection) to name every invalid proof.
     * Malformed input is not an invalid proof but an exception for the whole batch, as for
     * {@link #verify(VerificationKey, Proof)}: a {@link FormatException} naming "proof i" and the
     * field for a point off its curve or a B outside G2, an {@link IllegalArgumentException} for a
     * proof that does not fit the key. An empty list is valid (no proof to reject), with no pairing.
     */
    public static BatchResult verifyBatch(VerificationKey vk, List<Proof> proofs) {
        return verifyBatch(vk, proofs, SystemRandom.create());
    }

    /** {@link #verifyBatch(VerificationKey, List)} with the given generator of the coefficients. */
    public static BatchResult verifyBatch(VerificationKey vk, List<Proof> proofs, SecureRandom random) {
        Validate.notNull(vk, "verification key");
        Validate.notNull(proofs, "proofs");
        Validate.notNull(random, "random");
        List<String> names = new ArrayList<>(proofs.size());
        for (int i = 0; i < proofs.size(); i++) {
            names.add("proof " + i);
            requireMatch(vk, proofs.get(i), names.get(i));
        }
        requireOnCurves(vk.curve(), proofs, names); // made with Proof's constructor, perhaps: no reader checked them
        return verifyBatch(vk, proofs, random, names);
    }

    /**
     * verifyBatch of proofs that fit the key (requireMatch); the pairings check that every B is in
     * G2, bNames (the proofs' files, or "proof i") for the message when one is not.
     */
    private static BatchResult verifyBatch(VerificationKey vk, List<Proof> proofs, SecureRandom random, List<String> bNames) {
        List<Integer> invalid = new ArrayList<>();
        int[] products = {0};
        bisect(vk, proofs, 0, proofs.size(), random, invalid, products, bNames);
        return new BatchResult(invalid.isEmpty(), invalid, products[0]);
    }

    private static void bisect(VerificationKey vk, List<Proof> proofs, int from, int to, SecureRandom random, List<Integer> invalid,
            int[] products, List<String> bNames) {
        if (from >= to) {
            return;
        }
        products[0]++;
        boolean ok = to - from == 1 ? verify(vk, proofs.get(from), bNames.get(from))
                : combined(vk, proofs.subList(from, to), random, bNames.subList(from, to));
        if (ok) {
            return;
        }
        if (to - from == 1) {
            invalid.add(from);
            return;
        }
        int mid = (from + to) >>> 1;
        bisect(vk, proofs, from, mid, random, invalid, products, bNames);
        bisect(vk, proofs, mid, to, random, invalid, products, bNames);
    }

    private static boolean combined(VerificationKey vk, List<Proof> proofs, SecureRandom random, List<String> bNames) {
        Curve curve = vk.curve();
        BigInteger r = curve.r();
        int n = proofs.size();
        List<Point> g1 = new ArrayList<>(n + 3);
        List<Point> g2 = new ArrayList<>(n + 3);
        BigInteger[] icScalars = new BigInteger[vk.ic().size()];
        java.util.Arrays.fill(icScalars, BigInteger.ZERO);
        // r_j = a_j + b_j lambda with 64-bit a_j, b_j: still 2^128 coefficients (no two pairs give
        // one r_j: the lattice of (a, b) with a + b lambda = 0 mod r has no vector shorter than
        // about 2^127), which the native library's G1 multiplication by the endomorphism (GLV)
        // splits back into (a_j, b_j): r_j A_j costs a 64-bit double multiplication (one native
        // call for all of them), and sum r_j C_j is an MSM of C_j with the a_j and phi(C_j) with
        // the b_j. Both take A_j and C_j in G1's subgroup (the readers check it); a point made
        // otherwise differs from [r_j]A_j by a part of the cofactor's order, which pairs to one, as
        // it does in a single verification.
        List<Point> cParts = new ArrayList<>(2 * n);
        List<BigInteger> cScalars = new ArrayList<>(2 * n);
        List<Point> cEndo = new ArrayList<>(n);
        List<BigInteger> cHigh = new ArrayList<>(n);
        // the coefficients' 128 bits, all in one draw from the generator (one read of the device)
        byte[] drawn = new byte[16 * n];
        random.nextBytes(drawn);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            io.cuzk.PointVector as = io.cuzk.PointVector.allocate(arena, curve, Group.G1, n);
            io.cuzk.ScalarVector scalars = io.cuzk.ScalarVector.allocate(arena, curve, n, io.cuzk.ScalarForm.CANONICAL);
            for (int j = 0; j < n; j++) {
                Proof p = proofs.get(j);
                BigInteger a = new BigInteger(1, drawn, 16 * j, 8);
                BigInteger b = new BigInteger(1, drawn, 16 * j + 8, 8);
                if (a.signum() == 0 && b.signum() == 0) {
                    a = BigInteger.ONE; // 2^-128: a zero would drop the proof from the check
                }
                BigInteger rj = a.add(b.multiply(curve.g1Lambda())).mod(r);
                cParts.add(p.piC());
                cScalars.add(a);
                cEndo.add(p.piC().endomorphism());
                cHigh.add(b);
                as.set(j, p.piA());
                scalars.set(j, rj);
                g2.add(p.piB());
                icScalars[0] = icScalars[0].add(rj);
                for (int i = 0; i < p.publicSignals().size(); i++) {
                    icScalars[i + 1] = icScalars[i + 1].add(rj.multiply(p.publicSignals().get(i))); // reduced once, below
                }
            }
            io.cuzk.PointVector ras = io.cuzk.PointVector.allocate(arena, curve, Group.G1, n);
            Points.multiplyInSubgroup(as, scalars, ras);
            for (int j = 0; j < n; j++) {
                g1.add(ras.get(j));
            }
        }
        cParts.addAll(cEndo);
        cScalars.addAll(cHigh);
        List<BigInteger> ic = new ArrayList<>(icScalars.length);
        for (BigInteger s : icScalars) {
            ic.add(s.mod(r));
        }
        Prepared key = prepared(vk);
        List<Point> fixed = List.of(Points.multiply(vk.alpha1(), ic.get(0)).negated(), // sum r_j alpha: IC[0]'s scalar is sum r_j too
                (key != null ? key.linearCombination(vk, ic) : Points.sum(vk.ic(), ic)).negated(), Points.sum(cParts, cScalars).negated());
        if (key != null) {
            return outcome(Pairing.isOneCheckingG2(g1, g2, fixed, key.lines(), null), bNames, curve);
        }
        g1.addAll(fixed);
        g2.addAll(List.of(vk.beta2(), vk.gamma2(), vk.delta2()));
        boolean valid = outcome(Pairing.isOneCheckingG2(g1, g2, List.of(), null, null), bNames, curve);
        seen(vk);
        return valid;
    }

    /** L = IC[0] + sum s[i] IC[i + 1]. */
    static Point linearCombination(VerificationKey vk, List<BigInteger> signals) {
        return Points.sum(vk.ic(), icScalars(signals));
    }

    /** L's scalars: 1 for IC[0], then the signals. */
    private static List<BigInteger> icScalars(List<BigInteger> signals) {
        List<BigInteger> scalars = new ArrayList<>(signals.size() + 1);
        scalars.add(BigInteger.ONE);
        scalars.addAll(signals);
        return scalars;
    }

    private static void requireMatch(VerificationKey vk, Proof proof, String what) {
        Validate.notNull(vk, "verification key");
        Validate.notNull(proof, what);
        Validate.isTrue(proof.curve() == vk.curve(), "%s is a %s proof, the verification key is for %s", what,
                proof.curve().snarkjsName(), vk.curve().snarkjsName());
        Validate.isTrue(proof.publicSignals().size() == vk.nPublic(), "%s has %d public signals, the verification key expects %d", what,
                proof.publicSignals().size(), vk.nPublic());
        for (int i = 0; i < proof.publicSignals().size(); i++) {
            BigInteger s = proof.publicSignals().get(i);
            Validate.isTrue(s.signum() >= 0 && s.compareTo(vk.curve().r()) < 0, "%s: public signal %d is not in [0, r)", what, i);
        }
    }
}
