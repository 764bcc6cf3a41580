package io.cuzk.jmh;

import io.cuzk.Backend;
import io.cuzk.CpuIsa;
import io.cuzk.Curve;
import io.cuzk.Cuzk;
import io.cuzk.NttKind;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarOps;
import io.cuzk.ScalarVector;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Groth16's H from a, b and c on the CPU: {@code oneCall} is cuzk_groth16_h (the inverse transform
 * by decimation in frequency, one scaling pass, the coset transform from bit-reversed input);
 * {@code stepByStep} is the baseline, the backend's natural-order transforms (inverse, then coset
 * forward, each with its permutation and scaling passes) and the element-wise operations. Each
 * call starts from fresh copies of the same a, b and c. {@code -p isa=X86_ADX,X86_IFMA} compares
 * the scalar H with the IFMA one in one run (a path this CPU lacks fails the trial).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class GrothHBenchmark {
    @Param({"BN254", "BLS12_381"})
    public Curve curve;

    @Param({"16"})
    public int logSize;

    @Param({"2"})
    public int threads;

    @Param({"AUTO"})
    public CpuIsa isa;

    private Arena arena;
    private ScalarVector a0, b0, c0, a, b, c;
    private Backend backend;
    private BigInteger shift;

    @Setup(Level.Trial)
    public void setUp() {
        Cuzk.setCpuIsa(isa);
        arena = Arena.ofShared();
        int n = 1 << logSize;
        a0 = Inputs.scalars(arena, curve, n, ScalarForm.MONTGOMERY, 11);
        b0 = Inputs.scalars(arena, curve, n, ScalarForm.MONTGOMERY, 12);
        c0 = Inputs.scalars(arena, curve, n, ScalarForm.MONTGOMERY, 13);
        a = ScalarVector.allocate(arena, curve, n, ScalarForm.MONTGOMERY);
        b = ScalarVector.allocate(arena, curve, n, ScalarForm.MONTGOMERY);
        c = ScalarVector.allocate(arena, curve, n, ScalarForm.MONTGOMERY);
        backend = Backend.cpu(threads);
        // the coset snarkjs uses: the primitive 2^(k+1)-th root of unity, 5^((r-1)/2^(k+1))
        shift = BigInteger.valueOf(5).modPow(curve.r().subtract(BigInteger.ONE).shiftRight(logSize + 1), curve.r());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    private void reset() {
        MemorySegment.copy(a0.segment(), 0, a.segment(), 0, a.segment().byteSize());
        MemorySegment.copy(b0.segment(), 0, b.segment(), 0, b.segment().byteSize());
        MemorySegment.copy(c0.segment(), 0, c.segment(), 0, c.segment().byteSize());
    }

    @Benchmark
    public ScalarVector oneCall() {
        reset();
        backend.groth16H(a, b, c, ScalarForm.MONTGOMERY);
        return a;
    }

    @Benchmark
    public ScalarVector stepByStep() {
        reset();
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            backend.ntt(v, NttKind.INVERSE);
            backend.ntt(v, NttKind.COSET_FORWARD, shift);
        }
        ScalarOps.multiply(a, b, a);
        ScalarOps.subtract(a, c, a);
        return a;
    }
}
