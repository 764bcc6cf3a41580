package io.cuzk.jmh;

import io.cuzk.Curve;
import io.cuzk.Group;
import io.cuzk.Point;
import io.cuzk.Points;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.VerificationKey;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Groth16 verification on one thread, input checks included: {@code single} reads one proof from
 * its proof.json and public.json text (every point checked on its curve and in its subgroup, B's
 * by the pairing; every signal below r) and verifies it; {@code batch} does the same for
 * {@code batch} proofs and verifies them together (one product of batch + 3 pairings); their
 * ParsedFirst baselines read with {@link Proof#parse} first (B checked on its own). The key and
 * the proofs are made up: random alpha, beta, gamma, delta and IC, and proofs (A, B, C) solved to
 * satisfy the equation, so no circuit is needed and the cost is that of any key with the same
 * number of public signals.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class VerifyBenchmark {
    @Param({"BN254", "BLS12_381"})
    public Curve curve;

    @Param({"2"})
    public int publicSignals;

    @Param({"64"})
    public int batch;

    private VerificationKey vk;
    private List<String[]> files;
    private List<Groth16Verifier.ProofJson> jsons;
    private SecureRandom random;
    private Proof parsed;
    private List<VerificationKey> unprepared;
    private int next;
    private List<Point> icPoints;
    private List<BigInteger> icScalars;
    private io.cuzk.FixedBases fixedIc;

    @Setup(Level.Trial)
    public void setUp() {
        Random rnd = new Random(7);
        BigInteger r = curve.r();
        Point g1 = Points.generator(curve, Group.G1), g2 = Points.generator(curve, Group.G2);
        BigInteger x = rand(rnd, r), y = rand(rnd, r), g = rand(rnd, r), d = rand(rnd, r);
        List<BigInteger> ic = new ArrayList<>();
        List<Point> icPoints = new ArrayList<>();
        for (int i = 0; i <= publicSignals; i++) {
            ic.add(rand(rnd, r));
            icPoints.add(Points.multiply(g1, ic.get(i)));
        }
        this.icPoints = icPoints;
        this.fixedIc = io.cuzk.FixedBases.of(icPoints);
        vk = new VerificationKey(curve, publicSignals, Points.multiply(g1, x), Points.multiply(g2, y), Points.multiply(g2, g),
                Points.multiply(g2, d), icPoints);
        files = new ArrayList<>();
        for (int j = 0; j < batch; j++) {
            List<BigInteger> signals = new ArrayList<>();
            BigInteger l = ic.get(0);
            for (int i = 0; i < publicSignals; i++) {
                BigInteger s = rand(rnd, r);
                signals.add(s);
                l = l.add(s.multiply(ic.get(i + 1)));
            }
            BigInteger a = rand(rnd, r), b = rand(rnd, r);
            // a b = x y + l g + c d
            BigInteger c = a.multiply(b).subtract(x.multiply(y)).subtract(l.mod(r).multiply(g)).multiply(d.modInverse(r)).mod(r);
            Proof p = new Proof(curve, Points.multiply(g1, a), Points.multiply(g2, b), Points.multiply(g1, c), signals);
            files.add(new String[] {p.proofJson(), p.publicJson()});
        }
        jsons = new ArrayList<>();
        for (String[] f : files) {
            jsons.add(new Groth16Verifier.ProofJson("proof.json", f[0], "public.json", f[1]));
        }
        // keys the verifier has not prepared: more than it keeps, each with its own first IC point
        // (the proofs do not verify against them: the work is the same)
        unprepared = new ArrayList<>();
        for (int k = 0; k < 2 * Groth16Verifier.PREPARED_KEYS; k++) {
            List<Point> other = new ArrayList<>(icPoints);
            other.set(0, Points.multiply(g1, ic.get(0).add(BigInteger.valueOf(k + 1))));
            unprepared.add(new VerificationKey(curve, publicSignals, vk.alpha1(), vk.beta2(), vk.gamma2(), vk.delta2(), other));
        }
        random = new SecureRandom();
        parsed = parse(0);
        icScalars = new ArrayList<>();
        icScalars.add(BigInteger.ONE);
        icScalars.addAll(parsed.publicSignals());
        if (!fixedIc.sum(icScalars).equals(Points.sum(icPoints, icScalars))) {
            throw new IllegalStateException("the two sums of L differ");
        }
        if (!Groth16Verifier.verify(vk, parse(0)) || !Groth16Verifier.verifyBatch(vk, parseAll()).valid() || !single()
                || !Groth16Verifier.verifyBatchJson(vk, jsons).valid()) {
            throw new IllegalStateException("the made-up proofs do not verify");
        }
    }

    private static BigInteger rand(Random rnd, BigInteger r) {
        return new BigInteger(r.bitLength() + 64, rnd).mod(r.subtract(BigInteger.ONE)).add(BigInteger.ONE);
    }

    private Proof parse(int i) {
        return Proof.parse("proof.json", files.get(i)[0], "public.json", files.get(i)[1]);
    }

    private List<Proof> parseAll() {
        List<Proof> out = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            out.add(parse(i));
        }
        return out;
    }

    /** One proof read from its files' text and verified, as {@code bin/cuzk verify} does (B's subgroup check made by the pairing). */
    @Benchmark
    public boolean single() {
        return Groth16Verifier.verifyJson(vk, "proof.json", files.get(0)[0], "public.json", files.get(0)[1]);
    }

    /** The baseline of {@link #single}: {@link Proof#parse} (every point checked on its own), then verify. */
    @Benchmark
    public boolean singleParsedFirst() {
        return Groth16Verifier.verify(vk, parse(0));
    }

    /** The whole batch, read from the files' text: divide by {@code batch} for the cost per proof. */
    @Benchmark
    public boolean batch() {
        return Groth16Verifier.verifyBatchJson(vk, jsons, random).valid();
    }

    /** The baseline of {@link #batch}: every proof parsed first ({@link Proof#parse}), then verifyBatch. */
    @Benchmark
    public boolean batchParsedFirst() {
        return Groth16Verifier.verifyBatch(vk, parseAll(), random).valid();
    }

    /** Verification of a proof read before: the pairings and L's sum, without parsing and input checks. */
    @Benchmark
    public boolean verifyParsed() {
        return Groth16Verifier.verify(vk, parsed);
    }

    /**
     * L = IC[0] + sum s[i] IC[i + 1] over the key's multiples of its IC points ({@link io.cuzk.FixedBases}),
     * as a verification does from a key's second one on.
     */
    @Benchmark
    public Point linearCombinationFixed() {
        return fixedIc.sum(icScalars);
    }

    /** The baseline of {@link #linearCombinationFixed}: the same sum by Straus's interleaving (a key's first verification). */
    @Benchmark
    public Point linearCombinationStraus() {
        return Points.sum(icPoints, icScalars);
    }

    /**
     * The baseline of {@link #verifyParsed}: each call against a key the verifier has not seen
     * lately, so its four pairs run in one Miller loop (a key's first verification), where
     * verifyParsed reuses its key's (-alpha, beta) loop.
     */
    @Benchmark
    public boolean verifyParsedUnprepared() {
        VerificationKey k = unprepared.get(next);
        next = (next + 1) % unprepared.size();
        return Groth16Verifier.verify(k, parsed);
    }
}
