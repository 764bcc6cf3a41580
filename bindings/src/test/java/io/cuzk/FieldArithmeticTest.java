package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The native Montgomery arithmetic of Fp, Fr and Fp2 against {@link BigInteger}, on random values
 * and on 0, 1 and p - 1.
 */
class FieldArithmeticTest {
    static final int FP = 0;
    static final int FR = 1;
    static final int FP2 = 2;
    static final int ADD = 0;
    static final int SUB = 1;
    static final int MUL = 2;
    static final int SQR = 3;
    static final int NEG = 4;
    static final int INV = 5;
    static final int TO_MONT = 6;
    static final int FROM_MONT = 7;

    record F(Curve curve, int field, BigInteger m, int bytes) {
        BigInteger radix() {
            return BigInteger.ONE.shiftLeft(8 * bytes);
        }
    }

    static List<BigInteger> samples(BigInteger m, long seed) {
        Random rnd = new Random(seed);
        List<BigInteger> v = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, m.subtract(BigInteger.ONE),
                BigInteger.TWO, m.subtract(BigInteger.TWO), m.shiftRight(1)));
        while (v.size() < 300) {
            v.add(new BigInteger(m.bitLength() + 8, rnd).mod(m));
        }
        return v;
    }

    static MemorySegment pack(Arena a, List<BigInteger> values, int bytes) {
        MemorySegment s = a.allocate((long) values.size() * bytes, 8);
        byte[] buf = new byte[bytes];
        for (int i = 0; i < values.size(); i++) {
            Point.putLe(buf, 0, bytes, values.get(i));
            MemorySegment.copy(MemorySegment.ofArray(buf), 0, s, (long) i * bytes, bytes);
        }
        return s;
    }

    static List<BigInteger> unpack(MemorySegment s, int n, int bytes) {
        List<BigInteger> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Point.getLe(s.asSlice((long) i * bytes, bytes).toArray(ValueLayout.JAVA_BYTE), 0, bytes));
        }
        return out;
    }

    /** Runs one native op over raw (as stored) values. */
    static List<BigInteger> op(F f, int op, List<BigInteger> a, List<BigInteger> b) {
        int elemBytes = f.field == FP2 ? 2 * f.bytes : f.bytes;
        int n = f.field == FP2 ? a.size() / 2 : a.size();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = pack(arena, a, f.bytes);
            MemorySegment sb = pack(arena, b, f.bytes);
            MemorySegment out = arena.allocate((long) n * elemBytes, 8);
            Checked.check(cuzk_h.cuzk_field_op(f.curve.id(), f.field, op, sa, sb, out, n), "cuzk_field_op");
            return unpack(out, a.size(), f.bytes);
        }
    }

    static F fieldOf(Curve c, int field) {
        return field == FR ? new F(c, FR, c.r(), 32) : new F(c, field, c.p(), c.fpBytes());
    }

    static void checkPrime(F f, long seed) {
        BigInteger m = f.m;
        List<BigInteger> a = new ArrayList<>(samples(m, seed));
        List<BigInteger> b = new ArrayList<>(samples(m, seed + 1));
        Collections.reverse(b);
        UnaryOperator<BigInteger> mont = x -> x.multiply(f.radix()).mod(m);
        BigInteger rInv = f.radix().modInverse(m);
        // Values whose stored (Montgomery) form is 2^k, 2^k - 1 or p - 2^k: runs of zero or one bits
        // at the bottom (cuzk_inversion, run by InversionToolTest, checks the MSM's inversion there).
        for (int k = 0; k < m.bitLength() - 1; k += 7) {
            BigInteger pow = BigInteger.ONE.shiftLeft(k);
            for (BigInteger stored : List.of(pow, pow.subtract(BigInteger.ONE), m.subtract(pow))) {
                a.add(stored.multiply(rInv).mod(m));
                b.add(pow.mod(m));
            }
        }
        UnaryOperator<BigInteger> unmont = x -> x.multiply(rInv).mod(m);
        List<BigInteger> am = op(f, TO_MONT, a, a);
        assertEquals(a.stream().map(mont).toList(), am, "to_mont");
        List<BigInteger> bm = op(f, TO_MONT, b, b);
        assertEquals(a, op(f, FROM_MONT, am, am), "from_mont");
        binary(f, ADD, a, b, am, bm, BigInteger::add, mont);
        binary(f, SUB, a, b, am, bm, BigInteger::subtract, mont);
        binary(f, MUL, a, b, am, bm, BigInteger::multiply, mont);
        assertEquals(a.stream().map(x -> mont.apply(x.multiply(x).mod(m))).toList(), op(f, SQR, am, am), "sqr");
        assertEquals(a.stream().map(x -> mont.apply(x.negate().mod(m))).toList(), op(f, NEG, am, am), "neg");
        assertEquals(a.stream().map(x -> x.signum() == 0 ? BigInteger.ZERO : mont.apply(x.modInverse(m))).toList(),
                op(f, INV, am, am), "inv (of zero: zero)");
        assertEquals(a, am.stream().map(unmont).toList(), "Montgomery form round trip");
    }

    static void binary(F f, int op, List<BigInteger> a, List<BigInteger> b, List<BigInteger> am, List<BigInteger> bm,
            BinaryOperator<BigInteger> ref, UnaryOperator<BigInteger> mont) {
        List<BigInteger> expected = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            expected.add(mont.apply(ref.apply(a.get(i), b.get(i)).mod(f.m)));
        }
        assertEquals(expected, op(f, op, am, bm), "op " + op + " of " + f.curve + " field " + f.field);
    }

    /** Runs the check on every CPU code path this machine has, then restores the default. */
    static void onEveryCpuPath(Runnable check) {
        try {
            for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
                Cuzk.setCpuIsa(isa);
                check.run();
            }
        } finally {
            Cuzk.setCpuIsa(CpuIsa.AUTO);
        }
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void baseFieldMatchesBigInteger(Curve c) {
        onEveryCpuPath(() -> checkPrime(fieldOf(c, FP), 11));
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void scalarFieldMatchesBigInteger(Curve c) {
        onEveryCpuPath(() -> checkPrime(fieldOf(c, FR), 12));
    }

    /** Fp2 = Fp[u]/(u^2 + 1): products against the schoolbook formula over BigInteger. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void quadraticExtensionMatchesBigInteger(Curve c) {
        onEveryCpuPath(() -> checkExtension(c));
    }

    /**
     * Fp2 products at the edges of the lazy reduction (on MULX/ADX hosts a0 b0 - a1 b1 and
     * (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 are formed on whole 2N-word products and reduced once each):
     * every combination of the stored coefficients 0, 1, 2, p - 2, p - 1 and p itself (a lazy zero,
     * which stored values may hold), so that a0 b0 - a1 b1 reaches its most negative value, -(p-1)^2,
     * and a0 b1 + a1 b0 its largest; each product's coefficients must come back below p.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void quadraticExtensionProductsAtTheEdges(Curve c) {
        onEveryCpuPath(() -> {
            F f = fieldOf(c, FP2);
            BigInteger p = c.p();
            BigInteger rInv = f.radix().modInverse(p);
            List<BigInteger> stored = List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, p.subtract(BigInteger.TWO),
                    p.subtract(BigInteger.ONE), p);
            List<BigInteger> a = new ArrayList<>(), b = new ArrayList<>();
            for (BigInteger a0 : stored) {
                for (BigInteger a1 : stored) {
                    for (BigInteger b0 : stored) {
                        for (BigInteger b1 : stored) {
                            a.addAll(List.of(a0, a1));
                            b.addAll(List.of(b0, b1));
                        }
                    }
                }
            }
            List<BigInteger> mul = op(f, MUL, a, b);
            for (int i = 0; i < a.size(); i += 2) {
                BigInteger a0 = a.get(i), a1 = a.get(i + 1), b0 = b.get(i), b1 = b.get(i + 1);
                String what = c + " (" + a0 + ", " + a1 + ") * (" + b0 + ", " + b1 + ") as stored";
                assertEquals(a0.multiply(b0).subtract(a1.multiply(b1)).multiply(rInv).mod(p), mul.get(i), "c0 of " + what);
                assertEquals(a0.multiply(b1).add(a1.multiply(b0)).multiply(rInv).mod(p), mul.get(i + 1), "c1 of " + what);
            }
        });
    }

    static void checkExtension(Curve c) {
        F f = fieldOf(c, FP2);
        BigInteger p = c.p();
        List<BigInteger> a = samples(p, 21);
        List<BigInteger> b = samples(p, 22);
        Collections.reverse(b);
        UnaryOperator<BigInteger> mont = x -> x.multiply(f.radix()).mod(p);
        List<BigInteger> am = a.stream().map(mont).toList();
        List<BigInteger> bm = b.stream().map(mont).toList();
        List<BigInteger> mul = op(f, MUL, am, bm);
        List<BigInteger> sqr = op(f, SQR, am, am);
        List<BigInteger> inv = op(f, INV, am, am);
        List<BigInteger> sum = op(f, ADD, am, bm);
        for (int i = 0; i < a.size(); i += 2) {
            BigInteger a0 = a.get(i), a1 = a.get(i + 1), b0 = b.get(i), b1 = b.get(i + 1);
            assertEquals(mont.apply(a0.multiply(b0).subtract(a1.multiply(b1)).mod(p)), mul.get(i), "mul c0");
            assertEquals(mont.apply(a0.multiply(b1).add(a1.multiply(b0)).mod(p)), mul.get(i + 1), "mul c1");
            assertEquals(mont.apply(a0.multiply(a0).subtract(a1.multiply(a1)).mod(p)), sqr.get(i), "sqr c0");
            assertEquals(mont.apply(a0.multiply(a1).shiftLeft(1).mod(p)), sqr.get(i + 1), "sqr c1");
            assertEquals(mont.apply(a0.add(b0).mod(p)), sum.get(i), "add c0");
            assertEquals(mont.apply(a1.add(b1).mod(p)), sum.get(i + 1), "add c1");
            BigInteger norm = a0.multiply(a0).add(a1.multiply(a1)).mod(p);
            if (norm.signum() == 0) {
                assertEquals(BigInteger.ZERO, inv.get(i));
                assertEquals(BigInteger.ZERO, inv.get(i + 1));
            } else {
                BigInteger ni = norm.modInverse(p);
                assertEquals(mont.apply(a0.multiply(ni).mod(p)), inv.get(i), "inv c0");
                assertEquals(mont.apply(a1.negate().multiply(ni).mod(p)), inv.get(i + 1), "inv c1");
            }
        }
    }
}
