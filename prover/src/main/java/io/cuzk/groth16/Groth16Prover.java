package io.cuzk.groth16;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.Groth16Inputs;
import io.cuzk.Groth16Msms;
import io.cuzk.Point;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * Groth16 proofs the way snarkjs computes them, so that snarkjs (and any verifier of its proofs)
 * accepts them, and so that for the same r and s the proof is the same bit for bit:
 *
 * <ol>
 *   <li>a = A·w, b = B·w from the key's coefficients, c = a∘b (evaluations on the domain H of size n);
 *   <li>for each of a, b, c: the inverse NTT on H, then the coset NTT on ω₂ₙ·H (coefficient i
 *       times ω₂ₙ^i, then the forward NTT), which gives the values at the odd powers of ω₂ₙ;
 *   <li>h = a·b − c there (the key's H points already carry the division by Z);
 *   <li>the MSMs A·w, B1·w, B2·w (G2), C·w[nPublic+1..] and H·h;
 *   <li>π_A = α₁ + A + r·δ₁, π_B = β₂ + B2 + s·δ₂, B1' = β₁ + B1 + s·δ₁,
 *       π_C = C + H + s·π_A + r·B1' − r·s·δ₁.
 * </ol>
 *
 * <p>On the CPU backend a prover may be used by several threads at once (each proof's buffers are
 * its own); a key and a witness may be read by several proofs at once.
 */
public final class Groth16Prover {
    private final Backend backend;
    private final Blinding blinding;

    public Groth16Prover(Backend backend, Blinding blinding) {
        this.backend = Validate.notNull(backend, "backend");
        this.blinding = Validate.notNull(blinding, "blinding");
    }

    /** A prover on the CPU backend (all threads) with secure blinding. */
    public Groth16Prover() {
        this(Backend.cpu(), Blinding.secure());
    }

    /**
     * The proof of witness for key on this prover's backend; the witness must belong to the key's
     * circuit. On a GPU the key's points are uploaded for this proof only: a prover of many proofs
     * of one key keeps them resident instead (the engine does, see {@link Backend#resident}).
     */
    public Proof prove(ProvingKey key, Witness witness) {
        return prove(key, witness, phase -> { });
    }

    /**
     * {@link #prove(ProvingKey, Witness)}, telling phases each phase as it begins ("synthesis",
     * "H and MSMs", "assembly"), for a progress display; called on this thread.
     */
    public Proof prove(ProvingKey key, Witness witness, java.util.function.Consumer<String> phases) {
        Validate.notNull(key, "key");
        Validate.notNull(witness, "witness");
        Validate.notNull(phases, "phases");
        witness.requireFits(key);
        Curve curve = key.curve();
        int n = key.domainSize();
        Groth16Msms msms;
        List<BigInteger> signals;
        // the key's and the witness's close wait for this proof (synthesis reads them through
        // addresses the JDK does not count as uses)
        try (CloseGate.Use keyUse = key.use(); CloseGate.Use witnessUse = witness.use();
                Arena arena = Arena.ofShared(); Backend.Resident bases = backend.resident(key.bases())) {
            // a, b and c in one buffer: from 2^14 on it is large enough for huge pages (one page
            // fault per 2 MiB instead of 512 where three buffers of 512 KiB would take 4 KiB pages)
            ScalarVector abc = ScalarVector.allocate(arena, curve, 3L * n, ScalarForm.MONTGOMERY);
            ScalarVector a = abc.slice(0, n);
            ScalarVector b = abc.slice(n, n);
            ScalarVector c = abc.slice(2L * n, n);
            phases.accept("synthesis");
            Synthesis.abc(key, witness.values(), a, b, c, backend.hostThreads());
            phases.accept("H and MSMs");
            msms = backend.groth16(bases, new Groth16Inputs(witness.values(), a, b, c, arena));
            signals = witness.publicSignals(key.nPublic());
        }
        phases.accept("assembly");
        return assemble(key, msms, blinding.draw(curve), signals);
    }

    /** Step 5: the proof from the MSMs and the blinding factors {r, s}, each point one linear combination. */
    public static Proof assemble(ProvingKey key, Groth16Msms m, BigInteger[] rs, List<BigInteger> publicSignals) {
        Curve curve = key.curve();
        BigInteger r = rs[0], s = rs[1], one = BigInteger.ONE;
        Point piA = Points.sum(List.of(key.alpha1(), m.a(), key.delta1()), List.of(one, one, r));
        Point piB = Points.sum(List.of(key.beta2(), m.b2(), key.delta2()), List.of(one, one, s));
        Point b1 = Points.sum(List.of(key.beta1(), m.b1(), key.delta1()), List.of(one, one, s));
        Point piC = Points.sum(List.of(m.c(), m.h(), piA, b1, key.delta1()), List.of(one, one, s, r, r.multiply(s).negate()));
        return new Proof(curve, piA, piB, piC, publicSignals);
    }

    /**
     * What a proof of this shape can have made before its key and witness are read (see
     * {@link Backend#prepareGroth16}: on the CPU its native calls linked and the tables H keeps per
     * domain size, about 12 ms at 2^14 the first time). A one-shot command runs this on a second
     * thread while it reads the key; a resident prover gets the same from its first proof.
     */
    public static void prepare(ProvingKey.Shape shape, Backend backend) {
        Validate.notNull(shape, "shape");
        Validate.notNull(backend, "backend");
        backend.prepareGroth16(shape.curve(), Integer.numberOfTrailingZeros(shape.domainSize()));
    }

    /** The blinding this prover draws r and s from. */
    public Blinding blinding() {
        return blinding;
    }
}
