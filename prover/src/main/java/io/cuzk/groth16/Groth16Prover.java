package io.cuzk.groth16;

import io.cuzk.Backend;
import io.cuzk.CpuBackend;
import io.cuzk.CudaBackend;
import io.cuzk.Curve;
import io.cuzk.NttKind;
import io.cuzk.Point;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarOps;
import io.cuzk.ScalarVector;
import io.cuzk.Synthesis;
import io.cuzk.cuda.Stream;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
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

    /** The results of the five MSMs of a proof. */
    public record Msms(Point a, Point b1, Point b2, Point c, Point h) {}

    /** The proof of witness for key; the witness must belong to the key's circuit. */
    public Proof prove(ProvingKey key, Witness witness) {
        witness.requireFits(key);
        Curve curve = key.curve();
        int n = key.domainSize();
        Msms msms;
        try (Arena arena = Arena.ofShared()) {
            // a, b and c in one buffer: from 2^14 on it is large enough for huge pages (one page
            // fault per 2 MiB instead of 512 where three buffers of 512 KiB would take 4 KiB pages)
            ScalarVector abc = ScalarVector.allocate(arena, curve, 3L * n, ScalarForm.MONTGOMERY);
            ScalarVector a = abc.slice(0, n);
            ScalarVector b = abc.slice(n, n);
            ScalarVector c = abc.slice(2L * n, n);
            Synthesis.abc(key.coefficients(), key.nCoefficients(), witness.values(), a, b, c, backend.hostThreads());
            if (backend instanceof CudaBackend gpu) {
                try (Stream stream = Stream.create(gpu.device())) {
                    msms = CudaGroth16.start(gpu, stream, key, witness.values(), a, b, c, () -> { }, Backend.cpu(),
                            ForkJoinPool.commonPool()).finish();
                }
            } else {
                msms = msms(key, witness.values(), computeH(key, a, b, c, backend), backend);
            }
        }
        return assemble(key, msms, blinding.draw(curve), witness.publicSignals(key.nPublic()));
    }

    /**
     * Step 2 and 3: from a, b, c (evaluations on the domain, Montgomery form) to h, left in a and
     * returned as a view of a; b and c are overwritten. On the CPU one native call does every step
     * ({@link Synthesis#h}) and leaves h canonical, as the MSM takes it without converting a copy;
     * other backends run the NTTs themselves and leave it in Montgomery form.
     */
    public static ScalarVector computeH(ProvingKey key, ScalarVector a, ScalarVector b, ScalarVector c, Backend backend) {
        int n = key.domainSize();
        Validate.isTrue(a.size() == n && b.size() == n && c.size() == n, "a, b and c must have the domain's size %d", n);
        if (backend instanceof CpuBackend cpu) {
            return Synthesis.h(a, b, c, cpu.hostThreads(), ScalarForm.CANONICAL);
        }
        BigInteger shift = rootOfUnity(key.curve(), Integer.numberOfTrailingZeros(n) + 1);
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            backend.ntt(v, NttKind.INVERSE);
            backend.ntt(v, NttKind.COSET_FORWARD, shift);
        }
        ScalarOps.multiply(a, b, a);
        ScalarOps.subtract(a, c, a);
        return a;
    }

    /** Step 4: the MSMs, from the canonical witness and h (either form). */
    public static Msms msms(ProvingKey key, ScalarVector witness, ScalarVector h, Backend backend) {
        return new Msms(backend.msm(key.a(), witness), backend.msm(key.b1(), witness), backend.msm(key.b2(), witness),
                backend.msm(key.c(), witness.slice(key.nPublic() + 1L, key.c().size())), backend.msm(key.h(), h));
    }

    /** Step 5: the proof from the MSMs and the blinding factors {r, s}, each point one linear combination. */
    public static Proof assemble(ProvingKey key, Msms m, BigInteger[] rs, List<BigInteger> publicSignals) {
        Curve curve = key.curve();
        BigInteger r = rs[0], s = rs[1], one = BigInteger.ONE;
        Point piA = Points.sum(List.of(key.alpha1(), m.a(), key.delta1()), List.of(one, one, r));
        Point piB = Points.sum(List.of(key.beta2(), m.b2(), key.delta2()), List.of(one, one, s));
        Point b1 = Points.sum(List.of(key.beta1(), m.b1(), key.delta1()), List.of(one, one, s));
        Point piC = Points.sum(List.of(m.c(), m.h(), piA, b1, key.delta1()), List.of(one, one, s, r, r.multiply(s).negate()));
        return new Proof(curve, piA, piB, piC, publicSignals);
    }

    /**
     * Links the native calls a CPU proof makes after reading its inputs (synthesis, H, the MSMs).
     * The FFM linker makes a stub per call shape on first use (10-40 ms in a one-shot command on
     * the machines of docs/benchmarks.md); these calls share the shape of the key's point checks
     * (ABI 2), so whichever thread comes first links it once. A one-shot command
     * ({@code bin/cuzk prove}) calls this on a second thread while it reads the key; a
     * long-running prover need not.
     */
    public static void linkNativeCalls() {
        cuzk_h.cuzk_groth16_abc$handle();
        cuzk_h.cuzk_groth16_h$handle();
        cuzk_h.cuzk_msm$handle();
    }

    /**
     * What a proof of this shape can have made before its key and witness are read: its native
     * calls linked and, on the CPU, the tables H keeps per domain size ({@link Synthesis#prepareH};
     * about 12 ms at 2^14 the first time). A one-shot command runs this on a second thread while
     * it reads the key; a resident prover gets the same from its first proof.
     */
    public static void prepare(ProvingKey.Shape shape, Backend backend) {
        Validate.notNull(shape, "shape");
        Validate.notNull(backend, "backend");
        if (backend instanceof CpuBackend cpu) {
            linkNativeCalls();
            Synthesis.prepareH(shape.curve(), Integer.numberOfTrailingZeros(shape.domainSize()), cpu.hostThreads());
        }
    }

    /** The blinding this prover draws r and s from. */
    public Blinding blinding() {
        return blinding;
    }

    /** The primitive 2^k-th root of unity snarkjs uses: 5^((r-1)/2^k). */
    public static BigInteger rootOfUnity(Curve curve, int k) {
        Validate.isTrue(k <= curve.twoAdicity(), "no 2^%d-th root of unity in %s's Fr", k, curve.cliName());
        return BigInteger.valueOf(5).modPow(curve.r().subtract(BigInteger.ONE).shiftRight(k), curve.r());
    }
}
